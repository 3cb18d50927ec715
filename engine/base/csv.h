/* The one writer of a CSV field, for every CSV Situ writes (sweep, merge and reproduce through
 * the study, advise, the lesson report, a scenario's situ.csv, the explorer's export): RFC 4180,
 * so that any CSV reader splits each row into the header's columns whatever the field holds (a
 * lesson named "a, b", a file name with a carriage return). */
#ifndef SITU_CSV_H
#define SITU_CSV_H

#include <stdio.h>

/* text as one field: quoted when it holds a comma, a double quote, a CR or a LF, its quotes
 * doubled; as it is otherwise. The caller writes the separators (',' and '\n'). */
void csv_field(FILE *f, const char *text);

#endif
