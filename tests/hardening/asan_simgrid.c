/* Linked into the ASan build only (-Wl,--wrap=simgrid_init): asks SimGrid for thread contexts.
 *
 * SimGrid's default "raw" contexts switch between actor stacks with hand-written assembly that
 * ASan is not told about (Debian's SimGrid is not built with sanitizer fiber support), so ASan
 * sees a stack pointer it does not know and may report false stack errors or miss real ones.
 * Thread contexts run each actor on a real pthread stack, which ASan understands.
 * SITU_SIMGRID_CONTEXTS=raw|ucontext|thread overrides the choice (for experiments). */
#include <stdio.h>
#include <stdlib.h>

void __real_simgrid_init(int *argc, char **argv);

void __wrap_simgrid_init(int *argc, char **argv)
{
    static char cfg[64];
    static char *args[64];
    const char *factory = getenv("SITU_SIMGRID_CONTEXTS");
    int n = 0;
    for (; n < *argc && n < 62; n++)
        args[n] = argv[n];
    snprintf(cfg, sizeof cfg, "--cfg=contexts/factory:%s",
             factory && *factory ? factory : "thread");
    args[n++] = cfg;
    args[n] = NULL;
    *argc = n;
    __real_simgrid_init(argc, args);
}
