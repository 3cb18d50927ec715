#include "params.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../base/flag.h"

static const char *const mapping_choices[] = {"insitu", "intransit", "hostfile",
                                              "inline", "posthoc",   NULL};
static const char *const dtl_choices[] = {"queue", "mailbox", "file", "staging", NULL};
static const char *const fidelity_choices[] = {"fast", "full", "smpi", NULL};
static const char *const smpi_network_choices[] = {"LV08", "SMPI", NULL};
static const char *const sampling_choices[] = {"auto", "off", NULL};

#define OFF(field) offsetof(struct params, field)

/* clang-format off */
static struct param_desc table[PARAM_MAX] = {
    [P_NODES] = {"nodes", "nodes", PARAM_INT, OFF(nodes), 1, 1, 1024, 1, SCALE_LINEAR, NULL, NULL,
        "nodes used, simulation and analytics together", true},
    [P_CORES_PER_NODE] = {"cores_per_node", "cores", PARAM_INT, OFF(cores_per_node), 32, 1, 1024, 1,
        SCALE_LINEAR, NULL, NULL, "cores of one node that the workflow uses", false},
    [P_RATIO] = {"ratio", "sim/ana", PARAM_INT, OFF(ratio), 15, 1, 1023, 1, SCALE_LINEAR, NULL, NULL,
        "simulation cores per analytics core; (ratio+1) must divide cores_per_node (ignored by "
        "mapping=inline)", true},
    [P_STRIDE] = {"stride", "iter", PARAM_INT, OFF(stride), 20, 1, 1e8, 2, SCALE_LOG, NULL, NULL,
        "MD iterations between two analyses", true},
    [P_ITERATIONS] = {"iterations", "iter", PARAM_INT, OFF(iterations), 8000, 1, 1e9, 2, SCALE_LOG,
        NULL, NULL, "MD iterations in total", true},
    [P_REGION] = {"region", "cells", PARAM_INT, OFF(region), 70, 1, 2000, 10, SCALE_LINEAR, NULL, NULL,
        "LJ melt cells per side; particles = 4*region^3", true},
    [P_SIM_COST] = {"sim_cost", "s/part/it", PARAM_REAL, OFF(sim_cost), 8.2e-7, 1e-12, 1, 1.25,
        SCALE_LOG, NULL, NULL, "seconds per particle per MD iteration on a reference core", true},
    [P_HALO_PERIOD] = {"halo_period", "iter", PARAM_INT, OFF(halo_period), 20, 1, 1e8, 2, SCALE_LOG,
        NULL, NULL, "MD iterations between halo exchanges (neigh_modify every X)", true},
    [P_ANALYTICS_COST] = {"analytics_cost", "s/part", PARAM_REAL, OFF(analytics_cost), 7.93e-7, 0, 1,
        1.25, SCALE_LOG, NULL, NULL, "seconds per particle per analysis on a reference core", true},
    [P_COMPUTE_SCALING] = {"compute_scaling", "x", PARAM_REAL, OFF(compute_scaling), 1, 0, 1e6, 2,
        SCALE_LOG, NULL, NULL, "multiplier on the analytics cost (what-if)", true},
    [P_DATA_SIZE] = {"data_size", "B/part", PARAM_REAL, OFF(data_size), 100, 0, 1e9, 2, SCALE_LOG,
        NULL, NULL, "bytes per particle sent to the analytics", true},
    [P_DATA_SCALING] = {"data_scaling", "x", PARAM_REAL, OFF(data_scaling), 1, 0, 1e6, 2, SCALE_LOG,
        NULL, NULL, "multiplier on the data size (what-if)", true},
    [P_MAPPING] = {"mapping", "", PARAM_CHOICE, OFF(mapping), MAPPING_INSITU, 0, 4, 1, SCALE_LINEAR,
        mapping_choices, NULL, "where the analytics runs: insitu (helper cores), intransit (own "
        "nodes), hostfile, inline (on every rank, every stride; ratio ignored) or posthoc (after "
        "the simulation, on all its cores, from files; ratio and dtl ignored)", true},
    [P_HOSTFILE] = {"hostfile", "", PARAM_PATH, OFF(hostfile), 0, 0, 0, 0, SCALE_LINEAR, NULL, "",
        "MPI-style hostfile placing the analytics (mapping=hostfile)", false},
    [P_DTL] = {"dtl", "", PARAM_CHOICE, OFF(dtl), DTL_MAILBOX, 0, 3, 1, SCALE_LINEAR, dtl_choices,
        NULL, "data transport: queue (instantaneous), mailbox (loopback/network cost), file "
        "(written to and read from the platform's disks) or staging (servers on the analytics "
        "nodes, mapping=intransit; see staging_memory)", true},
    [P_PLATFORM] = {"platform", "", PARAM_PATH, OFF(platform), 0, 0, 0, 0, SCALE_LINEAR, NULL,
        "platforms/dahu.xml", "SimGrid platform XML (clusters of any topology, zones)", false},
    [P_FIDELITY] = {"fidelity", "", PARAM_CHOICE, OFF(fidelity), FIDELITY_FAST, 0, 2, 1,
        SCALE_LINEAR, fidelity_choices, NULL,
        "simulation detail: fast (aggregated per node), full (every rank and message) or smpi "
        "(an MPI proxy of the workflow under SMPI)", true},
    [P_SMPI_NETWORK] = {"smpi_network", "", PARAM_CHOICE, OFF(smpi_network), SMPI_NET_LV08, 0, 1, 1,
        SCALE_LINEAR, smpi_network_choices, NULL,
        "network model of fidelity=smpi: LV08 (the other levels' model) or SMPI (piecewise, "
        "closer to real MPI)", false},
    [P_SAMPLING] = {"sampling", "", PARAM_CHOICE, OFF(sampling), SAMPLING_AUTO, 0, 1, 1,
        SCALE_LINEAR, sampling_choices, NULL,
        "step sampling of fidelity=full: auto (stop once the steps repeat, extrapolate the rest) "
        "or off (simulate every step)", false},
    [P_ANALYTICS] = {"analytics", "", PARAM_PATH, OFF(analytics), 0, 0, 0, 0, SCALE_LINEAR, NULL, "",
        "Lua analytics: a file, or a name in scripts/lua/analytics/ (empty: built-in thermo)",
        false},
    [P_ANALYTICS_ZONE] = {"analytics_zone", "", PARAM_PATH, OFF(analytics_zone), 0, 0, 0, 0,
        SCALE_LINEAR, NULL, "", "zone or cluster of the platform that hosts the analytics nodes "
        "(mapping=intransit; empty: the last of the nodes)", false},
    [P_SIMULATION] = {"simulation", "", PARAM_PATH, OFF(simulation), 0, 0, 0, 0, SCALE_LINEAR, NULL,
        "", "Lua simulation profile: a file, or a name in scripts/lua/simulations/ (empty: "
        "built-in LJ melt); its own parameters become flags too", false},
    /* reduction: an element is one 8-byte value of a state (as DTLMod counts them). The
     * default costs are an assumption, not a measure: about 400 MB/s per core to compress and
     * 800 MB/s to restore (the order lossy compressors such as SZ or ZFP reach), 8 GB/s for a
     * strided copy. They are paid only when the reduction is on (ratio or step above 1). */
    [P_COMPRESSION] = {"compression", ":1", PARAM_REAL, OFF(compression), 1, 1, 1e6, 2, SCALE_LOG,
        NULL, NULL, "compression ratio of every state before its DTL put: bytes moved = bytes / "
        "ratio (1: none; ignored by mapping=inline)", true},
    [P_COMPRESSION_COST] = {"compression_cost", "s/element", PARAM_REAL, OFF(compression_cost),
        2e-8, 0, 1, 1.25, SCALE_LOG, NULL, NULL, "seconds per element (8 bytes) a simulation "
        "rank spends compressing its state, on a reference core (compression > 1)", false},
    [P_DECOMPRESSION_COST] = {"decompression_cost", "s/element", PARAM_REAL,
        OFF(decompression_cost), 1e-8, 0, 1, 1.25, SCALE_LOG, NULL, NULL, "seconds per element "
        "the analytics spends restoring a compressed state, on a reference core", false},
    [P_DECIMATION] = {"decimation", "step", PARAM_INT, OFF(decimation), 1, 1, 1e6, 1,
        SCALE_LINEAR, NULL, NULL, "keep every S-th element along each dimension of a rank's "
        "state before its DTL put: bytes / S^dims (1: none; ignored by mapping=inline)", true},
    [P_DECIMATION_COST] = {"decimation_cost", "s/element", PARAM_REAL, OFF(decimation_cost),
        1e-9, 0, 1, 1.25, SCALE_LOG, NULL, NULL, "seconds per element of the full state a "
        "simulation rank spends decimating it, on a reference core (decimation > 1)", false},
    /* staging: */
    [P_STAGING_MEMORY] = {"staging_memory", "bytes", PARAM_REAL, OFF(staging_memory), 64e9, 1,
        1e18, 2, SCALE_LOG, NULL, NULL, "memory of each staging server (dtl=staging): a put waits "
        "while its server holds this many bytes of states not yet analysed", false},
};
/* clang-format on */

const struct param_desc *const param_table = table;
int params_extra_count;

/* The declared parameters' strings: the table points into them. */
static struct {
    char key[40], unit[24], help[200];
} declared[PARAMS_EXTRA];

void params_declare_reset(void)
{
    params_extra_count = 0;
    memset(&table[P_EXTRA0], 0, PARAMS_EXTRA * sizeof table[0]);
}

int params_declare(const struct param_desc *d, char *err, size_t errlen)
{
    int k = params_extra_count;
    const char *key = d->key ? d->key : "";
    bool ok = *key && strlen(key) < sizeof declared[0].key && (*key < '0' || *key > '9');
    for (const char *c = key; ok && *c; c++)
        ok = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_';
    if (!ok) {
        snprintf(err, errlen,
                 "parameter '%.40s': expected a name of lowercase letters, digits and "
                 "'_' (at most %zu bytes)",
                 key, sizeof declared[0].key - 1);
        return -1;
    }
    if (params_find(key) >= 0) {
        snprintf(err, errlen, "parameter '%s': already a parameter (situ --help)", key);
        return -1;
    }
    if (k == PARAMS_EXTRA) {
        snprintf(err, errlen, "parameter '%s': more than %d parameters declared", key,
                 PARAMS_EXTRA);
        return -1;
    }
    if (!isfinite(d->min) || !isfinite(d->max) || !(d->min < d->max) || !(d->def >= d->min) ||
        !(d->def <= d->max) || (d->scale == SCALE_LOG && !(d->min > 0))) {
        snprintf(err, errlen,
                 "parameter '%s': expected min < max, min <= default <= max (min > 0 for a log "
                 "scale)",
                 key);
        return -1;
    }
    snprintf(declared[k].key, sizeof declared[k].key, "%s", key);
    snprintf(declared[k].unit, sizeof declared[k].unit, "%s", d->unit ? d->unit : "");
    snprintf(declared[k].help, sizeof declared[k].help, "%s", d->help ? d->help : "");
    /* A slider step: the declared one, or 1.25x on a log scale, 1/50 of the range on a linear. */
    double step = d->step > 0 ? d->step : d->scale == SCALE_LOG ? 1.25 : (d->max - d->min) / 50;
    table[P_EXTRA0 + k] = (struct param_desc){.key = declared[k].key,
                                              .unit = declared[k].unit,
                                              .type = PARAM_REAL,
                                              .offset = OFF(extra) + (size_t)k * sizeof(double),
                                              .def = d->def,
                                              .min = d->min,
                                              .max = d->max,
                                              .step = step,
                                              .scale = d->scale,
                                              .help = declared[k].help,
                                              .slider = true};
    params_extra_count++;
    return 0;
}

static void *field(struct params *p, int id)
{
    return (char *)p + param_table[id].offset;
}

static const void *cfield(const struct params *p, int id)
{
    return (const char *)p + param_table[id].offset;
}

static void seterr(char *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, PARAMS_ERR_MAX, fmt, ap);
    va_end(ap);
}

int params_find_n(const char *name, size_t len)
{
    /* The one spelling rule: '-' and '_' are the same letter, so the CLI's --compute-scaling,
     * the JSON's compute_scaling and anything between name one parameter wherever names are
     * read. Nothing else is folded: case and blanks count. */
    for (int id = 0; id < PARAM_COUNT; id++) {
        const char *k = param_table[id].key;
        bool same = strlen(k) == len;
        for (size_t j = 0; same && j < len; j++)
            same = name[j] == k[j] ||
                   ((name[j] == '-' || name[j] == '_') && (k[j] == '-' || k[j] == '_'));
        if (same)
            return id;
    }
    return -1;
}

int params_find(const char *key)
{
    return params_find_n(key, strlen(key));
}

/* How many one-letter edits (insert, delete, change, swap two) turn a into b, '-' and '_' the
 * same letter; 3 stands for "3 or more": no typo is that far. */
static int edits(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 47 || m > 47)
        return 3;
    int d[48][48];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            bool same = a[i - 1] == b[j - 1] ||
                        (strchr("-_", a[i - 1]) && strchr("-_", b[j - 1]) && a[i - 1] && b[j - 1]);
            int v = d[i - 1][j - 1] + !same;
            v = d[i - 1][j] + 1 < v ? d[i - 1][j] + 1 : v;
            v = d[i][j - 1] + 1 < v ? d[i][j - 1] + 1 : v;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m] < 3 ? d[n][m] : 3;
}

const char *params_nearest(const char *word, const char *const *names, int n)
{
    size_t wl = strlen(word);
    const char *best = NULL;
    int bestd = 3;
    bool tie = false;
    for (int k = 0; k < n && names[k]; k++) {
        int e = edits(word, names[k]);
        /* The start of one name, 3 letters or more ("intrans"), is as near as one edit. */
        if (wl >= 3 && strlen(names[k]) > wl && !strncmp(word, names[k], wl))
            e = e < 1 ? e : 1;
        if (e < bestd)
            best = names[k], bestd = e, tie = false;
        else if (e == bestd)
            tie = true;
    }
    /* One edit in a short word, two in a longer one; two names as near: no guess. */
    return best && !tie && bestd <= (wl <= 4 ? 1 : 2) ? best : NULL;
}

const char *params_nearest_key(const char *word)
{
    const char *keys[PARAM_COUNT];
    for (int id = 0; id < PARAM_COUNT; id++)
        keys[id] = param_table[id].key;
    return params_nearest(word, keys, PARAM_COUNT);
}

int params_find_linked(const char *names, int *ids, int max, char *err, size_t errlen)
{
    int n = 0;
    for (const char *k = names;; k++) {
        size_t len = strcspn(k, ":");
        int id = params_find_n(k, len);
        if (!len) {
            snprintf(err, errlen, "'%s': empty parameter name", names);
            return -1;
        }
        if (id < 0) {
            snprintf(err, errlen, "unknown parameter '%.*s'; see 'situ --help'", (int)len, k);
            return -1;
        }
        /* "ratio:ratio 7:15" would set ratio twice per row and keep only the last value. */
        for (int j = 0; j < n; j++)
            if (ids[j] == id) {
                snprintf(err, errlen, "%s: given twice in '%s'", param_table[id].key, names);
                return -1;
            }
        if (n == max) {
            snprintf(err, errlen, "'%s': more than %d parameters linked", names, max);
            return -1;
        }
        ids[n++] = id;
        k += len;
        if (!*k)
            return n;
    }
}

void params_defaults(struct params *p)
{
    memset(p, 0, sizeof *p);
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        switch (d->type) {
        case PARAM_INT:
            *(long *)field(p, id) = (long)d->def;
            break;
        case PARAM_REAL:
            *(double *)field(p, id) = d->def;
            break;
        case PARAM_CHOICE:
            *(int *)field(p, id) = (int)d->def;
            break;
        case PARAM_PATH:
            snprintf(field(p, id), PARAMS_PATH_MAX, "%s", d->def_str);
            break;
        }
    }
}

bool params_user_lua(const struct params *p)
{
    return p->analytics[0] || p->simulation[0];
}

bool params_is_name(int id)
{
    return id == P_ANALYTICS_ZONE;
}

void params_describe_range(int id, char *buf, size_t len)
{
    const struct param_desc *d = &param_table[id];
    if (d->type == PARAM_CHOICE) {
        size_t used = 0;
        buf[0] = 0;
        for (int c = 0; d->choices[c] && used < len; c++)
            used += snprintf(buf + used, len - used, "%s%s", c ? ", " : "one of ", d->choices[c]);
    } else if (d->type == PARAM_PATH) {
        snprintf(buf, len, params_is_name(id) ? "a name" : "a file path");
    } else if (d->type == PARAM_INT) {
        snprintf(buf, len, "an integer in [%.0f, %.0f]", d->min, d->max);
    } else {
        snprintf(buf, len, "a number in [%g, %g]", d->min, d->max);
    }
}

static int range_error(int id, const char *text, char *err)
{
    char range[160], shown[61];
    params_describe_range(id, range, sizeof range);
    /* Quote at most 60 bytes, control characters as '?': the message stays one printable line. */
    size_t n = 0;
    for (; n < sizeof shown - 1 && text[n]; n++)
        shown[n] = (unsigned char)text[n] < 0x20 || text[n] == 0x7f ? '?' : text[n];
    shown[n] = 0;
    const char *near = param_table[id].type == PARAM_CHOICE
                           ? params_nearest(text, param_table[id].choices, 16)
                           : NULL;
    seterr(err, "%s: '%s' is not valid; expected %s%s%s%s", param_table[id].key, shown, range,
           near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
    return -1;
}

/* The range error of a number, formatted only then: setting a value is an advisor's inner loop. */
static int number_error(int id, double value, char *err)
{
    char text[64];
    snprintf(text, sizeof text, "%.17g", value);
    return range_error(id, text, err);
}

int params_set_number(struct params *p, int id, double value, char *err)
{
    const struct param_desc *d = &param_table[id];
    if (d->type == PARAM_PATH || !isfinite(value) || value < d->min || value > d->max)
        return number_error(id, value, err);
    switch (d->type) {
    case PARAM_INT:
        if (value != floor(value))
            return number_error(id, value, err);
        *(long *)field(p, id) = (long)value;
        break;
    case PARAM_REAL:
        *(double *)field(p, id) = value;
        break;
    case PARAM_CHOICE:
        if (value != floor(value))
            return number_error(id, value, err);
        *(int *)field(p, id) = (int)value;
        break;
    case PARAM_PATH:
        break;
    }
    return 0;
}

int params_set(struct params *p, int id, const char *text, char *err)
{
    const struct param_desc *d = &param_table[id];
    char *end = NULL;
    errno = 0;
    switch (d->type) {
    case PARAM_INT: {
        long v = strtol(text, &end, 10);
        if (end == text || *end || errno)
            return range_error(id, text, err);
        return params_set_number(p, id, (double)v, err);
    }
    case PARAM_REAL: {
        double v = strtod(text, &end);
        if (end != text && !*end && errno == ERANGE) {
            seterr(err, "%s: '%.60s' is beyond what a double can hold (over- or underflow)", d->key,
                   text);
            return -1;
        }
        if (end == text || *end || errno)
            return range_error(id, text, err);
        return params_set_number(p, id, v, err);
    }
    case PARAM_CHOICE:
        for (int c = 0; d->choices[c]; c++)
            if (!strcmp(text, d->choices[c]))
                return params_set_number(p, id, c, err);
        return range_error(id, text, err);
    case PARAM_PATH:
        if (strlen(text) >= PARAMS_PATH_MAX) {
            seterr(err, "%s: path is longer than %d bytes", d->key, PARAMS_PATH_MAX - 1);
            return -1;
        }
        snprintf(field(p, id), PARAMS_PATH_MAX, "%s", text);
        return 0;
    }
    return -1;
}

int params_valid_ratios(long cores, long *out, int max)
{
    int n = 0;
    for (long r = 1; r < cores; r++) {
        if (cores % (r + 1))
            continue;
        if (n < max)
            out[n] = r;
        n++;
    }
    return n;
}

/* mapping=inline (or posthoc) has no analytics cores to place: a hostfile or an analytics zone
 * cannot apply. */
static int validate_inline(const struct params *p, char *err)
{
    const char *m = mapping_choices[p->mapping];
    if (p->hostfile[0]) {
        seterr(err, "hostfile: mapping=%s places no analytics cores; drop --hostfile", m);
        return -1;
    }
    if (p->analytics_zone[0]) {
        seterr(err, "analytics_zone: mapping=%s places no analytics nodes; drop --analytics-zone",
               m);
        return -1;
    }
    return 0;
}

int params_validate(const struct params *p, char *err)
{
    if ((p->mapping == MAPPING_INLINE || p->mapping == MAPPING_POSTHOC) &&
        validate_inline(p, err) < 0)
        return -1;
    /* The SMPI proxy's ranks are an MPI application's: driving SMPI's MPI I/O from them is not
     * done (sim_file.c covers fast and full). */
    if (p->fidelity == FIDELITY_SMPI &&
        (p->mapping == MAPPING_POSTHOC || (p->dtl == DTL_FILE && p->mapping != MAPPING_INLINE))) {
        seterr(err, "fidelity: smpi cannot model files (%s); use fidelity fast or full",
               p->mapping == MAPPING_POSTHOC ? "mapping=posthoc" : "dtl=file");
        return -1;
    }
    /* params_valid_ratios' test for p's ratio alone (its list only for the message: making it
     * was most of a search's validation) */
    bool ok =
        p->ratio >= 1 && p->ratio < p->cores_per_node && p->cores_per_node % (p->ratio + 1) == 0;
    if (!ok && p->mapping != MAPPING_INLINE && p->mapping != MAPPING_POSTHOC) {
        long valid[PARAMS_RATIOS_MAX];
        int n = params_valid_ratios(p->cores_per_node, valid, PARAMS_RATIOS_MAX);
        /* inline, posthoc: every core is a rank, whatever R */
        long below = 0, above = 0;
        for (int i = 0; i < n && i < PARAMS_RATIOS_MAX; i++) {
            if (valid[i] < p->ratio)
                below = valid[i];
            else if (!above)
                above = valid[i];
        }
        if (n == 0)
            seterr(err,
                   "ratio: cores_per_node=%ld cannot be split between simulation and analytics",
                   p->cores_per_node);
        else if (below && above)
            seterr(err, "ratio: %ld is not realisable on %ld-core nodes; nearest valid: %ld or %ld",
                   p->ratio, p->cores_per_node, below, above);
        else
            seterr(err, "ratio: %ld is not realisable on %ld-core nodes; nearest valid: %ld",
                   p->ratio, p->cores_per_node, below ? below : above);
        return -1;
    }
    if (p->stride > p->iterations) {
        seterr(err, "stride: %ld is larger than iterations (%ld); expected stride <= iterations",
               p->stride, p->iterations);
        return -1;
    }
    if (p->mapping == MAPPING_HOSTFILE && !p->hostfile[0]) {
        seterr(err, "hostfile: mapping=hostfile needs --hostfile FILE");
        return -1;
    }
    if (p->mapping == MAPPING_INTRANSIT && p->nodes < 2) {
        seterr(err, "nodes: mapping=intransit needs at least 2 nodes (simulation and analytics)");
        return -1;
    }
    /* staging: the servers and the analytics share the staging nodes; in situ the helper cores
     * would fetch each state back from a remote server, a round trip no design chooses. */
    if (p->dtl == DTL_STAGING && p->mapping != MAPPING_INTRANSIT) {
        seterr(err, "dtl: staging runs its servers and the analytics on the staging nodes: use "
                    "mapping=intransit (with --analytics-zone, or the last nodes)");
        return -1;
    }
    if (p->dtl == DTL_STAGING && p->fidelity == FIDELITY_SMPI) {
        seterr(err, "fidelity: smpi cannot model staging servers (dtl=staging): its proxy has no "
                    "bounded server memory; use --fidelity full");
        return -1;
    }
    if (!p->platform[0]) {
        seterr(err, "platform: expected a SimGrid platform XML file");
        return -1;
    }
    return 0;
}

double params_get_number(const struct params *p, int id)
{
    switch (param_table[id].type) {
    case PARAM_INT:
        return (double)*(const long *)cfield(p, id);
    case PARAM_REAL:
        return *(const double *)cfield(p, id);
    case PARAM_CHOICE:
        return *(const int *)cfield(p, id);
    case PARAM_PATH:
        break;
    }
    return 0;
}

void params_format(const struct params *p, int id, char *buf, size_t len)
{
    const struct param_desc *d = &param_table[id];
    switch (d->type) {
    case PARAM_INT:
        snprintf(buf, len, "%ld", *(const long *)cfield(p, id));
        break;
    case PARAM_REAL:
        snprintf(buf, len, "%.6g", *(const double *)cfield(p, id));
        break;
    case PARAM_CHOICE:
        snprintf(buf, len, "%s", d->choices[*(const int *)cfield(p, id)]);
        break;
    case PARAM_PATH:
        snprintf(buf, len, "%s", (const char *)cfield(p, id));
        break;
    }
}

static int step_ratio(struct params *p, int steps)
{
    long valid[PARAMS_RATIOS_MAX];
    int n = params_valid_ratios(p->cores_per_node, valid, PARAMS_RATIOS_MAX);
    if (n > PARAMS_RATIOS_MAX)
        n = PARAMS_RATIOS_MAX;
    int at = 0;
    while (at < n - 1 && valid[at] < p->ratio)
        at++;
    /* An unrealisable ratio first snaps to the nearest valid one in the direction of travel. */
    if (at < n && valid[at] != p->ratio && steps > 0)
        steps--;
    int to = at + steps;
    to = to < 0 ? 0 : to >= n ? n - 1 : to;
    if (n == 0 || valid[to] == p->ratio)
        return 0;
    p->ratio = valid[to];
    return 1;
}

int params_step(struct params *p, int id, int steps, bool coarse)
{
    const struct param_desc *d = &param_table[id];
    if (id == P_RATIO)
        return step_ratio(p, coarse ? steps * 2 : steps);
    if (d->type == PARAM_PATH)
        return 0;
    double v = params_get_number(p, id);
    if (d->type == PARAM_CHOICE) {
        int n = 0;
        while (d->choices[n])
            n++;
        v = fmod(fmod(v + steps, n) + n, n); /* choices cycle */
    } else if (d->scale == SCALE_LOG) {
        double f = pow(d->step, coarse ? 4 * steps : steps);
        v = v > 0 ? v * f : (steps > 0 ? (d->min > 0 ? d->min : 1e-9) : 0);
    } else {
        v += d->step * (coarse ? 10 : 1) * steps;
    }
    if (d->type == PARAM_INT) {
        double r = round(v);
        /* An integer log slider must still move by at least one. */
        if (r == params_get_number(p, id))
            r += steps > 0 ? 1 : -1;
        v = r;
    }
    v = v < d->min ? d->min : v > d->max ? d->max : v;
    if (v == params_get_number(p, id))
        return 0;
    return params_set_number(p, id, v, NULL) == 0;
}

double params_position(const struct params *p, int id)
{
    const struct param_desc *d = &param_table[id];
    double v = params_get_number(p, id);
    if (d->max <= d->min)
        return 0;
    if (d->scale == SCALE_LOG) {
        double lo = d->min > 0 ? d->min : d->max * 1e-9;
        if (v <= lo)
            return 0;
        return log(v / lo) / log(d->max / lo);
    }
    return (v - d->min) / (d->max - d->min);
}

int params_parse_flag(struct params *p, int argc, char **argv, int *i, char *err)
{
    const char *arg = argv[*i];
    char key[64];
    int id = flag_name(arg, key, sizeof key) ? params_find(key) : -1;
    if (id < 0)
        return 0;
    const char *value = flag_value(argc, argv, i);
    if (!value) {
        seterr(err, "%s: missing value after %s", param_table[id].key, arg);
        return -1;
    }
    (*i)++;
    return params_set(p, id, value, err) < 0 ? -1 : 1;
}

/* The flag, default and range of one parameter, as --help and the README show them. */
static void describe_param(int id, char *flag, size_t flaglen, char *def, size_t deflen,
                           char *range, size_t rangelen)
{
    snprintf(flag, flaglen, "--%s", param_table[id].key);
    for (char *c = flag; *c; c++)
        *c = *c == '_' ? '-' : *c;
    struct params p;
    params_defaults(&p);
    params_format(&p, id, def, deflen);
    params_describe_range(id, range, rangelen);
}

void params_print_help(FILE *out)
{
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        char flag[64], def[PARAMS_PATH_MAX], range[160];
        describe_param(id, flag, sizeof flag, def, sizeof def, range, sizeof range);
        fprintf(out, "  %-20s %s [%s%s]\n  %-20s   %s%s%s\n", flag, d->help,
                def[0] ? "default " : "no default", def, "", range, d->unit[0] ? ", unit " : "",
                d->unit);
    }
}

void params_print_markdown(FILE *out)
{
    fprintf(out, "| flag | meaning | default | accepts | unit |\n|---|---|---|---|---|\n");
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        char flag[64], def[PARAMS_PATH_MAX], range[160];
        describe_param(id, flag, sizeof flag, def, sizeof def, range, sizeof range);
        fprintf(out, "| `%s` | ", flag);
        for (const char *c = d->help; *c; c++) /* "<cluster>" would be read as an HTML tag */
            fputs(*c == '<' ? "&lt;" : *c == '>' ? "&gt;" : (char[2]){*c, 0}, out);
        fprintf(out, " | %s | %s | %s |\n", def[0] ? def : "none", range, d->unit);
    }
}

/* Appends a path with ';', '=' and '%' percent-encoded: two configurations never share a key,
 * whatever their paths contain. */
static size_t canonical_path(const char *path, char *out, size_t len)
{
    size_t n = 0;
    for (const char *c = path; *c && n + 4 <= len; c++)
        if (*c == ';' || *c == '=' || *c == '%')
            n += (size_t)snprintf(out + n, len - n, "%%%02X", (unsigned char)*c);
        else
            out[n++] = *c;
    out[n] = 0; /* the loop leaves room: n + 4 <= len before each write of at most 3 */
    return n;
}

void params_canonical(const struct params *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int id = 0; id < PARAM_COUNT && used + 1 < len; id++) {
        const struct param_desc *d = &param_table[id];
        used += (size_t)snprintf(buf + used, len - used, "%s%s=", id ? ";" : "", d->key);
        if (used >= len)
            break;
        if (d->type == PARAM_PATH) {
            used += canonical_path(cfield(p, id), buf + used, len - used);
            continue;
        }
        char v[64];
        if (d->type == PARAM_REAL) /* + 0.0: -0 and 0 are one configuration */
            snprintf(v, sizeof v, "%.17g", params_get_number(p, id) + 0.0);
        else
            params_format(p, id, v, sizeof v);
        used += (size_t)snprintf(buf + used, len - used, "%s", v);
    }
}
