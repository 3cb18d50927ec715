/* One reading of "--NAME VALUE" and "--NAME=VALUE" for every command (engine/base/flag.c). */
#include <criterion/criterion.h>

#include "../../engine/base/flag.h"

Test(flag, both_forms_give_the_value_and_move_past_it)
{
    char *argv[] = {"situ", "--out", "dir", "--out=other", "--out", NULL};
    const char *v;
    int i = 1;
    cr_assert(flag_take(5, argv, &i, "out", &v));
    cr_assert_str_eq(v, "dir");
    cr_assert_eq(i, 2, "on the value: the caller's i++ moves past it");
    i = 3;
    cr_assert(flag_take(5, argv, &i, "out", &v));
    cr_assert_str_eq(v, "other");
    cr_assert_eq(i, 3);
    i = 4;
    cr_assert(flag_take(5, argv, &i, "out", &v), "a flag with no value is still the flag");
    cr_assert_null(v);
}

Test(flag, other_names_and_non_flags_are_not_taken)
{
    char *argv[] = {"situ", "--outside", "out", "-out", "--", "--=x", NULL};
    const char *v = "untouched";
    for (int k = 1; k < 6; k++) {
        int i = k;
        cr_assert_not(flag_take(6, argv, &i, "out", &v), "%s", argv[k]);
        cr_assert_eq(i, k);
    }
    cr_assert_str_eq(v, "untouched");
    char key[4];
    cr_assert_not(flag_name("--toolong", key, sizeof key), "a name that does not fit");
    cr_assert_not(flag_name("--=1", key, sizeof key), "no name at all");
    cr_assert(flag_name("--abc=1", key, sizeof key));
    cr_assert_str_eq(key, "abc");
}
