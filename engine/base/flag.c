/* Command-line flags (flag.h). */
#include "flag.h"

#include <string.h>

bool flag_name(const char *arg, char *key, size_t keylen)
{
    if (strncmp(arg, "--", 2) || !arg[2])
        return false;
    size_t n = strcspn(arg + 2, "=");
    if (n == 0 || n >= keylen)
        return false;
    memcpy(key, arg + 2, n);
    key[n] = 0;
    return true;
}

const char *flag_value(int argc, char **argv, int *i)
{
    const char *eq = strchr(argv[*i], '=');
    if (eq)
        return eq + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

bool flag_take(int argc, char **argv, int *i, const char *name, const char **value)
{
    char key[64];
    if (!flag_name(argv[*i], key, sizeof key) || strcmp(key, name))
        return false;
    *value = flag_value(argc, argv, i);
    return true;
}
