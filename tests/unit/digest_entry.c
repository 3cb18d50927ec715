/* `build/unit __digest PLATFORM`, answered as the simulation helper answers it: the unit tests'
 * platform_load execs this binary (/proc/self/exe, set here as the digest's program) to have
 * SimGrid read a platform, as situ execs situ-sim. In a constructor, before
 * main: Criterion takes main over, and in a process that inherited a test worker's environment
 * it would abort there. glibc gives constructors the program's arguments. */
#include <stdlib.h>
#include <string.h>

#include "../../engine/base/datadir.h"
#include "../../engine/model/platform.h"
#include "../../engine/sim/sim_digest.h"

__attribute__((constructor)) static void digest_entry(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "__digest"))
        exit(sim_digest_main(argc, argv));
    char self[4096];
    if (datadir_self(self, sizeof self) == 0)
        platform_set_digest_program(self);
}
