#include "watchdog.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SLOTS   8
#define TICK_NS 20000000L /* how often the thread looks: 20 ms */

struct slot {
    atomic_bool armed;
    atomic_int_fast64_t deadline_ns; /* CLOCK_MONOTONIC */
    double seconds;
    char what[512];
};

static struct slot slots[SLOTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool thread_started;
static int_fast64_t paused_at; /* 0: not paused */
static atomic_int pause_depth;
static void (*on_fire)(void);

static int_fast64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int_fast64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void fire(const struct slot *s)
{
    char line[700];
    int n = snprintf(line, sizeof line,
                     "situ: %s: stopped after %g s, the time limit, inside a library call or a "
                     "finalizer where Lua cannot be interrupted (--time-limit raises it)\n",
                     s->what, s->seconds);
    if (on_fire)
        on_fire();
    if (n > 0)
        (void)!write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    _exit(2);
}

static void *watch(void *unused)
{
    (void)unused;
    const int_fast64_t grace = (int_fast64_t)(WATCHDOG_GRACE * 1e9);
    for (;;) {
        struct timespec tick = {0, TICK_NS};
        nanosleep(&tick, NULL);
        int_fast64_t now = now_ns();
        pthread_mutex_lock(&lock);
        bool paused = pause_depth > 0;
        for (int i = 0; i < SLOTS && !paused; i++)
            if (atomic_load(&slots[i].armed) && now > atomic_load(&slots[i].deadline_ns) + grace)
                fire(&slots[i]); /* does not return */
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

/* A fork copies the slots but not the thread: the child starts its own when it needs one. */
static void after_fork_child(void)
{
    pthread_mutex_init(&lock, NULL);
    thread_started = false;
    pause_depth = 0;
    for (int i = 0; i < SLOTS; i++)
        atomic_store(&slots[i].armed, false);
}

static bool start_thread(void)
{
    if (thread_started)
        return true;
    static bool atfork;
    if (!atfork && pthread_atfork(NULL, NULL, after_fork_child) == 0)
        atfork = true;
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    /* The thread starts with every signal blocked (it inherits this mask): TERM, INT and HUP
     * then always reach the main thread, whose handlers and held-back writes (outfile) expect
     * them; taken here, a TERM held back there would kill mid-write. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    thread_started = pthread_create(&t, &attr, watch, NULL) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    return thread_started;
}

int watchdog_arm(double seconds, const char *what)
{
    if (!(seconds > 0))
        return -1;
    pthread_mutex_lock(&lock);
    int h = -1;
    for (int i = 0; i < SLOTS && h < 0; i++)
        if (!atomic_load(&slots[i].armed))
            h = i;
    if (h >= 0 && start_thread()) {
        struct slot *s = &slots[h];
        s->seconds = seconds;
        snprintf(s->what, sizeof s->what, "%s", what && what[0] ? what : "Lua");
        atomic_store(&s->deadline_ns, now_ns() + (int_fast64_t)(seconds * 1e9));
        atomic_store(&s->armed, true);
    } else {
        h = -1;
    }
    pthread_mutex_unlock(&lock);
    return h;
}

void watchdog_disarm(int handle)
{
    if (handle < 0 || handle >= SLOTS)
        return;
    pthread_mutex_lock(&lock);
    atomic_store(&slots[handle].armed, false);
    pthread_mutex_unlock(&lock);
}

bool watchdog_expired(int handle)
{
    if (handle < 0 || handle >= SLOTS || !atomic_load(&slots[handle].armed))
        return false;
    return pause_depth == 0 && now_ns() > atomic_load(&slots[handle].deadline_ns);
}

void watchdog_pause(void)
{
    pthread_mutex_lock(&lock);
    if (pause_depth++ == 0)
        paused_at = now_ns();
    pthread_mutex_unlock(&lock);
}

void watchdog_resume(void)
{
    pthread_mutex_lock(&lock);
    if (pause_depth > 0 && --pause_depth == 0) {
        int_fast64_t waited = now_ns() - paused_at;
        for (int i = 0; i < SLOTS; i++)
            if (atomic_load(&slots[i].armed))
                atomic_fetch_add(&slots[i].deadline_ns, waited);
    }
    pthread_mutex_unlock(&lock);
}

void watchdog_on_fire(void (*fn)(void))
{
    on_fire = fn;
}
