/* One reading of a command-line flag for every command: "--NAME VALUE" or "--NAME=VALUE". */
#ifndef SITU_FLAG_H
#define SITU_FLAG_H

#include <stdbool.h>
#include <stddef.h>

/* The NAME of arg when it reads "--NAME" or "--NAME=...", copied into key; false when arg is not
 * a long flag or its name does not fit. */
bool flag_name(const char *arg, char *key, size_t keylen);

/* The value of a flag whose name argv[*i] holds: the text after '=', or else the next argument
 * (*i moves onto it); NULL when none follows. */
const char *flag_value(int argc, char **argv, int *i);

/* Whether argv[*i] is the flag --name, in either form. If so, *value gets flag_value's answer. */
bool flag_take(int argc, char **argv, int *i, const char *name, const char **value);

#endif
