/* `build/unit __digest PLATFORM`, answered as situ answers it: platform_load execs this binary
 * (/proc/self/exe) to have SimGrid read a platform, as it execs situ. In a constructor, before
 * main: Criterion takes main over, and in a process that inherited a test worker's environment
 * it would abort there. glibc gives constructors the program's arguments. */
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/digest.h"

__attribute__((constructor)) static void digest_entry(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "__digest"))
        exit(digest_main(argc, argv));
}
