/* The inputs of calibrate.h: LAMMPS log files and a CSV of any code's runs, read into runs of
 * Situ's own parameters. Every error is one line naming the file and the line. */
#include "calibrate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/infile.h"
#include "layout.h"

void calib_runs_free(struct calib_runs *r)
{
    free(r->run);
    r->run = NULL;
    r->n = r->cap = 0;
}

static struct calib_run *new_run(struct calib_runs *r, const char *path, int line,
                                 const struct params *base)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        struct calib_run *grown = realloc(r->run, (size_t)cap * sizeof *grown);
        if (!grown)
            return NULL;
        r->run = grown;
        r->cap = cap;
    }
    struct calib_run *run = &r->run[r->n++];
    memset(run, 0, sizeof *run);
    snprintf(run->file, sizeof run->file, "%s", path);
    run->line = line;
    run->p = *base;
    run->cpu_use = NAN;
    return run;
}

int calib_measure_cpu(struct calib_runs *runs, char *err, size_t errlen)
{
    for (int i = 0; i < runs->n; i++) {
        struct calib_run *r = &runs->run[i];
        if (!(r->cpu_use > 0)) {
            snprintf(err, errlen,
                     "%s:%d: no CPU use for this run ('N%% CPU use with' after its loop time, "
                     "as LAMMPS writes): --measure cpu needs one",
                     r->file, r->line);
            return -1;
        }
        r->total *= r->cpu_use;
    }
    return 0;
}

void calib_set_ranks(struct params *p, long ranks)
{
    p->nodes = 1;
    /* Set directly: one rank is one core, below the table's least node (2 cores), which only
     * the split between simulation and analytics cores needs; inline has no such split. */
    p->cores_per_node = ranks;
    p->mapping = MAPPING_INLINE;
}

/* Whole-string number: 0 and the value; -1 if s is no number, -2 if it is one but not finite
 * ("inf", "nan", "1e400"): a reader that may skip what is no number must still refuse those. */
static int number(const char *s, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    while (end != s && isspace((unsigned char)*end))
        end++;
    if (end == s || *end)
        return -1;
    return errno == 0 && isfinite(*v) ? 0 : -2;
}

/* ---- LAMMPS logs ---------------------------------------------------------------------------- */

#define LMP_MAX_IDS 16

struct lmp_state {
    char units[32], lattice[96], pair[96];
    long every;                   /* neigh_modify every (LAMMPS's default: 1) */
    char rdf[LMP_MAX_IDS][32];    /* ids of rdf computes */
    char fix[LMP_MAX_IDS][32];    /* ids of ave/time fixes of an rdf */
    long fix_stride[LMP_MAX_IDS]; /* their analyses' stride */
    int nrdf, nfix;
};

/* The words of a command line, at most max, in place. */
static int words(char *line, char **w, int max)
{
    int n = 0;
    for (char *tok = strtok(line, " \t\r\n"); tok && n < max; tok = strtok(NULL, " \t\r\n"))
        w[n++] = tok;
    return n;
}

static void join(char *out, size_t len, char **w, int from, int n)
{
    out[0] = 0;
    for (int i = from; i < n; i++) {
        size_t used = strlen(out);
        snprintf(out + used, len - used, "%s%s", i > from ? " " : "", w[i]);
    }
}

static int find_id(char ids[][32], int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(ids[i], id))
            return i;
    return -1;
}

static void drop_id(char ids[][32], long *vals, int *n, int i)
{
    for (int k = i + 1; k < *n; k++) {
        memcpy(ids[k - 1], ids[k], sizeof ids[k]);
        if (vals)
            vals[k - 1] = vals[k];
    }
    (*n)--;
}

/* One echoed input command: the state it sets. Returns 0, or -1 with why. */
static int lmp_command(struct lmp_state *s, char *line, char *why, size_t whylen)
{
    char *w[64];
    int n = words(line, w, 64);
    if (n == 0)
        return 0;
    if (!strcmp(w[0], "units") && n >= 2)
        snprintf(s->units, sizeof s->units, "%s", w[1]);
    else if (!strcmp(w[0], "lattice") && n >= 2)
        join(s->lattice, sizeof s->lattice, w, 1, n);
    else if (!strcmp(w[0], "pair_style") && n >= 2)
        join(s->pair, sizeof s->pair, w, 1, n);
    else if (!strcmp(w[0], "neigh_modify")) {
        for (int i = 1; i + 1 < n; i++)
            if (!strcmp(w[i], "every")) {
                double v;
                if (number(w[i + 1], &v) < 0 || v < 1 || v != floor(v)) {
                    snprintf(why, whylen, "neigh_modify every '%s' is not a positive integer",
                             w[i + 1]);
                    return -1;
                }
                s->every = (long)v;
            }
    } else if (!strcmp(w[0], "compute") && n >= 4 && !strcmp(w[3], "rdf")) {
        if (find_id(s->rdf, s->nrdf, w[1]) < 0 && s->nrdf < LMP_MAX_IDS)
            snprintf(s->rdf[s->nrdf++], sizeof s->rdf[0], "%.31s", w[1]);
    } else if (!strcmp(w[0], "uncompute") && n >= 2) {
        int i = find_id(s->rdf, s->nrdf, w[1]);
        if (i >= 0)
            drop_id(s->rdf, NULL, &s->nrdf, i);
    } else if (!strcmp(w[0], "fix") && n >= 7 && !strcmp(w[3], "ave/time")) {
        /* fix ID group ave/time Nevery Nrepeat Nfreq value ...: Nrepeat samples every Nfreq */
        bool of_rdf = false;
        for (int i = 7; i < n; i++) {
            if (strncmp(w[i], "c_", 2))
                continue;
            char id[32];
            snprintf(id, sizeof id, "%.*s", (int)strcspn(w[i] + 2, "["), w[i] + 2);
            of_rdf = of_rdf || find_id(s->rdf, s->nrdf, id) >= 0;
        }
        double every, repeat, freq;
        if (!of_rdf)
            return 0;
        if (number(w[4], &every) < 0 || number(w[5], &repeat) < 0 || number(w[6], &freq) < 0 ||
            every < 1 || repeat < 1 || freq < 1 || freq > 1e15 || fmod(freq, repeat) != 0) {
            snprintf(why, whylen,
                     "fix %s ave/time: expected Nevery Nrepeat Nfreq with Nrepeat dividing Nfreq",
                     w[1]);
            return -1;
        }
        int i = find_id(s->fix, s->nfix, w[1]);
        if (i < 0 && s->nfix < LMP_MAX_IDS)
            snprintf(s->fix[i = s->nfix++], sizeof s->fix[0], "%.31s", w[1]);
        if (i >= 0)
            s->fix_stride[i] = (long)(freq / repeat);
    } else if (!strcmp(w[0], "unfix") && n >= 2) {
        int i = find_id(s->fix, s->nfix, w[1]);
        if (i >= 0)
            drop_id(s->fix, s->fix_stride, &s->nfix, i);
    }
    return 0;
}

static const char *const lmp_words[] = {
    "units", "lattice", "pair_style", "neigh_modify", "compute", "fix", "uncompute", "unfix", NULL};

/* Whether line is an echoed input command that sets what the runs need: LAMMPS echoes each
 * command once per variable it substitutes, the last echo whole (no "${" left). */
static bool lmp_is_command(const char *line)
{
    if (strstr(line, "${") || strstr(line, "$("))
        return false;
    size_t n = strcspn(line, " \t\r\n");
    for (int i = 0; lmp_words[i]; i++)
        if (n == strlen(lmp_words[i]) && !strncmp(line, lmp_words[i], n))
            return true;
    return false;
}

/* "Pair    | 0.53155    | 0.53155    | 0.53155    |   0.0 | 80.58": the name and the average;
 * -1 for a line that is not a phase (the breakdown's heading), -2 for an average that is a
 * number but not a finite one. */
static int lmp_phase(const char *line, char *name, size_t len, double *avg)
{
    const char *bar = strchr(line, '|');
    if (!bar)
        return -1;
    size_t n = (size_t)(bar - line);
    while (n > 0 && isspace((unsigned char)line[n - 1]))
        n--;
    if (n == 0 || n >= len)
        return -1;
    snprintf(name, len, "%.*s", (int)n, line);
    const char *second = strchr(bar + 1, '|'); /* min | avg |: avg after the second bar */
    if (!second)
        return -1;
    char cell[64];
    snprintf(cell, sizeof cell, "%.*s", (int)strcspn(second + 1, "|"), second + 1);
    int rc = number(cell, avg);
    return rc == 0 && *avg < 0 ? -2 : rc;
}

/* "Loop time of T on P procs for S steps with N atoms", each number checked: T seconds > 0
 * and finite, P ranks, S steps and N atoms whole numbers in range. 0, or -1 with why. */
static int lmp_loop(const char *line, double *t, long *procs, long *steps, double *atoms, char *why,
                    size_t whylen)
{
    char tt[64], pp[64], ss[64], aa[64];
    double p, s;
    if (sscanf(line, "Loop time of %63s on %63s procs for %63s steps with %63s atoms", tt, pp, ss,
               aa) != 4) {
        snprintf(why, whylen, "a 'Loop time of' line LAMMPS did not write");
        return -1;
    }
    const struct {
        const char *text, *what, *want;
        double *v, lo, hi;
        bool whole;
    } f[] = {
        {tt, "the loop time", "a number of seconds in (0, 1e12]", t, 0, 1e12, false},
        {pp, "procs", "a whole number in [1, 1048576]", &p, 1, 1 << 20, true},
        {ss, "steps", "a whole number in [0, 1e15]", &s, 0, 1e15, true},
        {aa, "atoms", "a whole number in [1, 1e18]", atoms, 1, 1e18, true},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        int rc = number(f[i].text, f[i].v);
        double v = *f[i].v;
        if (rc < 0 || !(v >= f[i].lo && v <= f[i].hi) || (f[i].whole && v != floor(v)) ||
            (f[i].v == t && v == 0)) {
            snprintf(why, whylen, "'Loop time of' line: %s '%.40s' is %s; expected %s", f[i].what,
                     f[i].text,
                     rc == -1   ? "not a number"
                     : rc == -2 ? "not a finite number"
                                : "out of range",
                     f[i].want);
            return -1;
        }
    }
    *procs = (long)p;
    *steps = (long)s;
    return 0;
}

static int lmp_run(struct calib_run *run, const struct lmp_state *s, double t, long procs,
                   long steps, double atoms, char *why, size_t whylen)
{
    long L = lround(cbrt(atoms / PARTICLES_PER_CELL));
    if (strncmp(s->lattice, "fcc", 3) ||
        fabs(PARTICLES_PER_CELL * (double)L * L * L - atoms) > 0.5) {
        snprintf(why, whylen,
                 "%.0f atoms on lattice '%s': Situ's region counts the cells of an FCC melt "
                 "(4 region^3 atoms)",
                 atoms, s->lattice[0] ? s->lattice : "none");
        return -1;
    }
    char err[PARAMS_ERR_MAX];
    struct params *p = &run->p;
    if (params_set_number(p, P_REGION, (double)L, err) < 0 ||
        params_set_number(p, P_ITERATIONS, (double)steps, err) < 0 ||
        params_set_number(p, P_HALO_PERIOD, (double)s->every, err) < 0) {
        snprintf(why, whylen, "%s", err);
        return -1;
    }
    calib_set_ranks(p, procs);
    long stride = 0;
    for (int i = 0; i < s->nfix; i++) /* the most frequent analysis sets the pace */
        stride = stride && stride < s->fix_stride[i] ? stride : s->fix_stride[i];
    if (stride > steps)
        stride = 0; /* it never ran within the loop */
    p->stride = stride ? stride : steps;
    if (!stride)
        p->compute_scaling = 0;
    else if (p->compute_scaling == 0)
        p->compute_scaling = 1;
    run->total = t;
    snprintf(run->code, sizeof run->code, "lammps units %s, lattice %s, pair_style %s",
             s->units[0] ? s->units : "lj", s->lattice, s->pair[0] ? s->pair : "none");
    snprintf(run->label, sizeof run->label, "%ld atoms, %ld rank%s, %ld steps, %s%.0ld",
             (long)atoms, procs, procs > 1 ? "s" : "", steps, stride ? "rdf every " : "no analysis",
             stride);
    return 0;
}

int calib_read_lammps(const char *path, const struct params *base, struct calib_runs *runs,
                      char *err, size_t errlen)
{
    FILE *f = infile_open(path, "LAMMPS log", 0, err, errlen);
    if (!f)
        return -1;
    struct lmp_state s = {.every = 1};
    char *line = NULL, why[256] = "";
    size_t cap = 0;
    int lineno = 0, found = 0, rc = 0;
    long len;
    struct calib_run *run = NULL; /* the last run, while its timing breakdown follows */
    while (rc == 0 && (len = infile_line(f, &line, &cap, INFILE_LINE_MAX)) != -1) {
        lineno++;
        double t, atoms;
        long procs, steps;
        if (len == -2) {
            snprintf(why, sizeof why, "line longer than %ld bytes", INFILE_LINE_MAX);
            rc = -1;
        } else if (lmp_is_command(line)) {
            rc = lmp_command(&s, line, why, sizeof why);
        } else if (!strncmp(line, "Loop time of", 12)) {
            if (lmp_loop(line, &t, &procs, &steps, &atoms, why, sizeof why) < 0) {
                rc = -1;
            } else if (steps > 0) { /* a `run 0` is set-up only */
                found++;
                if (!(run = new_run(runs, path, lineno, base)))
                    snprintf(why, sizeof why, "out of memory"), rc = -1;
                else if ((rc = lmp_run(run, &s, t, procs, steps, atoms, why, sizeof why)) < 0)
                    runs->n--;
            }
        } else if (run && strchr(line, '|') && run->nphases < CALIB_MAX_PHASES) {
            char name[16];
            double avg;
            int ph = lmp_phase(line, name, sizeof name, &avg);
            if (ph == 0) {
                snprintf(run->phase_name[run->nphases], sizeof run->phase_name[0], "%s", name);
                run->phase[run->nphases++] = avg;
            } else if (ph == -2) {
                snprintf(why, sizeof why, "phase '%s': its average is not a finite time >= 0",
                         name);
                rc = -1;
            }
        } else if (run && strstr(line, "% CPU use with")) {
            char use[64];
            double v;
            int got = sscanf(line, "%63[^%]", use) == 1 ? number(use, &v) : -1;
            if (got != -1) { /* a number, even one that is not finite */
                if (got < 0 || !(v > 0)) {
                    snprintf(why, sizeof why, "CPU use '%.40s%%' is not a percentage > 0", use);
                    rc = -1;
                } else {
                    run->cpu_use = v / 100;
                }
            }
        } else if (run && !strncmp(line, "Nlocal:", 7)) {
            run = NULL; /* the breakdown is over */
        }
    }
    bool read_error = ferror(f);
    free(line);
    fclose(f);
    if (rc == 0 && read_error)
        snprintf(why, sizeof why, "read error"), rc = -1;
    if (rc == 0 && found == 0) {
        snprintf(why, sizeof why,
                 "no 'Loop time of' line: not a LAMMPS log, or its run did not finish");
        rc = -1;
    }
    if (rc < 0)
        snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
    return rc;
}

/* ---- CSV ------------------------------------------------------------------------------------ */

#define CSV_MAX_COLS 64
#define COL_RANKS    (-2)
#define COL_CODE     (-3)
#define COL_TOTAL    (-4)
#define COL_PHASE    (-5)

/* Splits a line at commas into trimmed cells, in place; -1 past CSV_MAX_COLS. */
static int cells(char *line, char **cell)
{
    int n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *c = line;; n++) {
        if (n == CSV_MAX_COLS)
            return -1;
        char *end = c + strcspn(c, ",");
        bool last = !*end;
        *end = 0;
        while (isspace((unsigned char)*c))
            c++;
        for (char *e = end; e > c && isspace((unsigned char)e[-1]);)
            *--e = 0;
        cell[n] = c;
        if (last)
            return n + 1;
        c = end + 1;
    }
}

static bool blank_or_comment(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    return !*line || *line == '#';
}

static int csv_header(char **cell, int n, int *col, char *why, size_t whylen)
{
    int total = -1;
    for (int i = 0; i < n; i++) {
        if (!strcmp(cell[i], "total")) {
            if (total >= 0) {
                snprintf(why, whylen, "two 'total' columns");
                return -1;
            }
            col[i] = COL_TOTAL;
            total = i;
        } else if (total >= 0) {
            col[i] = COL_PHASE;
        } else if (!strcmp(cell[i], "ranks")) {
            col[i] = COL_RANKS;
        } else if (!strcmp(cell[i], "code")) {
            col[i] = COL_CODE;
        } else if ((col[i] = params_find(cell[i])) < 0) {
            snprintf(why, whylen,
                     "column '%.40s' is no parameter (see situ --help), 'ranks' or 'code'; "
                     "measured columns come after 'total'",
                     cell[i]);
            return -1;
        }
        for (int k = 0; k < i; k++)
            if (col[k] == col[i] && col[i] != COL_PHASE) {
                snprintf(why, whylen, "columns '%.40s' and '%.40s' name one parameter", cell[k],
                         cell[i]);
                return -1;
            }
    }
    if (total < 0) {
        snprintf(why, whylen, "no 'total' column (the measured seconds of each run)");
        return -1;
    }
    if (n - total - 1 > CALIB_MAX_PHASES) {
        snprintf(why, whylen, "more than %d phase columns", CALIB_MAX_PHASES);
        return -1;
    }
    return 0;
}

static int csv_row(struct calib_run *run, char **cell, char **head, const int *col, int n,
                   char *why, size_t whylen)
{
    char err[PARAMS_ERR_MAX];
    size_t used = 0;
    snprintf(run->code, sizeof run->code, "the code of a CSV without a 'code' column");
    for (int i = 0; i < n; i++) {
        double v;
        if (col[i] == COL_CODE) {
            snprintf(run->code, sizeof run->code, "%s", cell[i]);
            continue;
        }
        if (col[i] >= 0 || col[i] == COL_RANKS) {
            used += (size_t)snprintf(run->label + used,
                                     used < sizeof run->label ? sizeof run->label - used : 0,
                                     "%s%s=%s", used ? " " : "", head[i], cell[i]);
            used = used < sizeof run->label ? used : sizeof run->label;
        }
        if (col[i] >= 0 && params_set(&run->p, col[i], cell[i], err) < 0) {
            snprintf(why, whylen, "%s", err);
            return -1;
        }
        if (col[i] >= 0)
            continue;
        if (number(cell[i], &v) < 0 ||
            (col[i] == COL_RANKS && (v < 1 || v != floor(v) || v > 1 << 20)) ||
            (col[i] != COL_RANKS && !(v >= 0 && v <= 1e12))) {
            snprintf(why, whylen, "%.40s: '%.40s' is not %s", head[i], cell[i],
                     col[i] == COL_RANKS ? "a positive integer"
                                         : "a number of seconds (in [0, 1e12])");
            return -1;
        }
        if (col[i] == COL_RANKS) {
            calib_set_ranks(&run->p, (long)v);
        } else if (col[i] == COL_TOTAL) {
            run->total = v;
        } else {
            snprintf(run->phase_name[run->nphases], sizeof run->phase_name[0], "%.15s", head[i]);
            run->phase[run->nphases++] = v;
        }
    }
    if (!(run->total > 0)) {
        snprintf(why, whylen, "total: a run takes more than 0 seconds");
        return -1;
    }
    return 0;
}

int calib_read_csv(const char *path, const struct params *base, struct calib_runs *runs, char *err,
                   size_t errlen)
{
    FILE *f = infile_open(path, "CSV of runs", 0, err, errlen);
    if (!f)
        return -1;
    char *line = NULL, *header = NULL, why[PARAMS_ERR_MAX + 64] = "";
    char *head[CSV_MAX_COLS], *cell[CSV_MAX_COLS];
    int col[CSV_MAX_COLS], ncols = 0, lineno = 0, rows = 0, rc = 0;
    size_t cap = 0;
    long len;
    while (rc == 0 && (len = infile_line(f, &line, &cap, INFILE_LINE_MAX)) != -1) {
        lineno++;
        if (len == -2) {
            snprintf(why, sizeof why, "line longer than %ld bytes", INFILE_LINE_MAX);
            rc = -1;
            break;
        }
        if (blank_or_comment(line))
            continue;
        if (!header) {
            if (!(header = strdup(line)) || (ncols = cells(header, head)) < 0)
                snprintf(why, sizeof why, "a header of more than %d columns", CSV_MAX_COLS),
                    rc = -1;
            else
                rc = csv_header(head, ncols, col, why, sizeof why);
            continue;
        }
        int n = cells(line, cell);
        struct calib_run *run;
        if (n != ncols) {
            snprintf(why, sizeof why, "%d cells where the header has %d", n, ncols);
            rc = -1;
        } else if (!(run = new_run(runs, path, lineno, base))) {
            snprintf(why, sizeof why, "out of memory");
            rc = -1;
        } else if ((rc = csv_row(run, cell, head, col, n, why, sizeof why)) < 0) {
            runs->n--;
        } else {
            rows++;
        }
    }
    if (rc == 0 && ferror(f))
        snprintf(why, sizeof why, "read error"), rc = -1;
    if (rc == 0 && !rows)
        snprintf(why, sizeof why, header ? "no runs after the header" : "empty: no header"),
            rc = -1;
    free(line);
    free(header);
    fclose(f);
    if (rc < 0)
        snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
    return rc;
}
