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
static pthread_cond_t wake; /* on CLOCK_MONOTONIC, made once (clock_once) */
static pthread_once_t clock_once = PTHREAD_ONCE_INIT;
/* The thread starts with the first deadline and ends when the deadlines pause (the simulations
 * a script waits for): then the process has no thread of ours, and the runner may fork copies
 * of it (engine/base/child.h: one thread, or exec). Not at each disarm: an analytics model may
 * call Lua thousands of times. */
static pthread_t thread;
static bool running;        /* thread exists, to be joined */
static unsigned generation; /* a thread runs while this is still the one it started with */
static int armed_count;
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

static void *watch(void *gen)
{
    const int_fast64_t grace = (int_fast64_t)(WATCHDOG_GRACE * 1e9);
    pthread_mutex_lock(&lock);
    while (generation == (unsigned)(uintptr_t)gen) {
        int_fast64_t next = now_ns() + TICK_NS;
        struct timespec at = {(time_t)(next / 1000000000), (long)(next % 1000000000)};
        pthread_cond_timedwait(&wake, &lock, &at);
        int_fast64_t now = now_ns();
        bool live = generation == (unsigned)(uintptr_t)gen && pause_depth == 0;
        for (int i = 0; i < SLOTS && live; i++)
            if (atomic_load(&slots[i].armed) && now > atomic_load(&slots[i].deadline_ns) + grace)
                fire(&slots[i]); /* does not return */
    }
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* A fork copies the slots but not the thread: the child starts its own when it needs one. */
static void cond_init(void);

static void after_fork_child(void)
{
    pthread_mutex_init(&lock, NULL);
    cond_init();
    running = false;
    generation++;
    armed_count = 0;
    pause_depth = 0;
    for (int i = 0; i < SLOTS; i++)
        atomic_store(&slots[i].armed, false);
}

static void cond_init(void)
{
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&wake, &attr);
    pthread_condattr_destroy(&attr);
}

static void clock_init(void)
{
    cond_init();
    pthread_atfork(NULL, NULL, after_fork_child);
}

/* With lock held. */
static bool start_thread(void)
{
    if (running)
        return true;
    pthread_once(&clock_once, clock_init);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    /* The thread starts with every signal blocked (it inherits this mask): TERM, INT and HUP
     * then always reach the main thread, whose handlers and held-back writes (outfile) expect
     * them; taken here, a TERM held back there would kill mid-write. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    running = pthread_create(&thread, &attr, watch, (void *)(uintptr_t)generation) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    return running;
}

/* With lock held, which it lets go while the thread ends. */
static void stop_thread(void)
{
    if (!running)
        return;
    pthread_t t = thread;
    running = false;
    generation++;
    pthread_cond_broadcast(&wake);
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    pthread_mutex_lock(&lock);
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
    if (h >= 0 && (pause_depth > 0 || start_thread())) {
        struct slot *s = &slots[h];
        s->seconds = seconds;
        snprintf(s->what, sizeof s->what, "%s", what && what[0] ? what : "Lua");
        atomic_store(&s->deadline_ns, now_ns() + (int_fast64_t)(seconds * 1e9));
        atomic_store(&s->armed, true);
        armed_count++;
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
    if (atomic_exchange(&slots[handle].armed, false))
        armed_count--;
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
    if (pause_depth++ == 0) {
        paused_at = now_ns();
        stop_thread(); /* nothing can fire: no thread while the caller waits */
    }
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
        if (armed_count > 0)
            start_thread(); /* without it, the Lua hook alone keeps the deadline */
    }
    pthread_mutex_unlock(&lock);
}

void watchdog_on_fire(void (*fn)(void))
{
    on_fire = fn;
}
