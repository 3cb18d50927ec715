/* The parameter table: every parameter of a Situ configuration is described once, here.
 * CLI flags, --help, JSON keys, validation, TUI sliders, Lua fields and presets read it. */
#ifndef SITU_PARAMS_H
#define SITU_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define PARAMS_PATH_MAX 512
#define PARAMS_ERR_MAX  256

enum param_type {
    PARAM_INT,    /* long */
    PARAM_REAL,   /* double */
    PARAM_CHOICE, /* int index into choices[] */
    PARAM_PATH,   /* char[PARAMS_PATH_MAX]: a path, or a name (params_is_name) */
};

enum param_scale { SCALE_LINEAR, SCALE_LOG };

#define PARAMS_EXTRA 8 /* slots for a simulation profile's own parameters (below) */

enum param_id {
    P_NODES,
    P_CORES_PER_NODE,
    P_RATIO,
    P_STRIDE,
    P_ITERATIONS,
    P_REGION,
    P_SIM_COST,
    P_HALO_PERIOD,
    P_ANALYTICS_COST,
    P_COMPUTE_SCALING,
    P_DATA_SIZE,
    P_DATA_SCALING,
    P_MAPPING,
    P_HOSTFILE,
    P_DTL,
    P_PLATFORM,
    P_FIDELITY,
    P_SMPI_NETWORK,
    P_SAMPLING,
    P_ANALYTICS,
    P_ANALYTICS_ZONE,
    P_SIMULATION,
    /* reduction: data reduction before every DTL put (model_reduce.h) */
    P_COMPRESSION,
    P_COMPRESSION_COST,
    P_DECOMPRESSION_COST,
    P_DECIMATION,
    P_DECIMATION_COST,
    /* staging: the staging servers' memory (dtl=staging) */
    P_STAGING_MEMORY,
    P_EXTRA0, /* the first of PARAMS_EXTRA slots a simulation profile may declare */
    PARAM_MAX = P_EXTRA0 + PARAMS_EXTRA
};

/* A simulation profile's own parameters (scripts/lua/simulations/ *.lua, `params = {...}`) live
 * in this one table, not beside it: PARAMS_EXTRA slots after the built-in parameters, which
 * params_declare activates at start-up, before any thread runs, when --simulation names a
 * profile (engine/lua/simulation.c). PARAM_COUNT is the built-in parameters plus the active
 * slots, so every loop over the table (flags, --help, JSON, presets, sliders, Lua's ctx and
 * situ.run, the cache key, the children's command lines) sees a declared parameter as it sees
 * a built-in one, with no special case; arrays are sized PARAM_MAX. Slots rather than a
 * growable table: struct params stays a plain value that is copied, hashed and written down a
 * pipe as it is, and the ids of the built-in parameters never move. A declared parameter is a
 * real number (struct params' extra[]). Cost parameters have units starting with "s/"
 * ("s/cell/it"): that is how a fit of measured runs finds the costs to fit. */
extern int params_extra_count;
#define PARAM_COUNT (P_EXTRA0 + params_extra_count)

/* MAPPING_INLINE: the ranks analyse their own part every stride, on their own cores (no analytics
 * cores, no DTL; the ratio does not apply). Appended: the indices before it stay. */
/* MAPPING_POSTHOC (files): every core a rank, writing each state to the platform's file system;
 * the analysis runs after the simulation, on the same cores, reading the files (model_file.c). */
enum mapping {
    MAPPING_INSITU,
    MAPPING_INTRANSIT,
    MAPPING_HOSTFILE,
    MAPPING_INLINE,
    MAPPING_POSTHOC
};
/* DTL_FILE (files): a state is a file striped over the platform's disks (model_file.c).
 * DTL_STAGING: staging servers (DataSpaces, ADIOS2 SST) on the analytics nodes of
 * mapping=intransit hold the states in memory (staging_memory bytes each); a put waits while its
 * server is full (model_staging.c, sim_staging.c). */
enum dtl_mode { DTL_QUEUE, DTL_MAILBOX, DTL_FILE, DTL_STAGING };
enum fidelity { FIDELITY_FAST, FIDELITY_FULL, FIDELITY_SMPI };
enum smpi_network { SMPI_NET_LV08, SMPI_NET_SMPI };
enum sampling { SAMPLING_AUTO, SAMPLING_OFF };

struct params {
    long nodes;
    long cores_per_node;
    long ratio;
    long stride;
    long iterations;
    long region;
    double sim_cost;
    long halo_period;
    double analytics_cost;
    double compute_scaling;
    double data_size;
    double data_scaling;
    int mapping;
    char hostfile[PARAMS_PATH_MAX];
    int dtl;
    char platform[PARAMS_PATH_MAX];
    int fidelity;
    int smpi_network;
    int sampling;
    char analytics[PARAMS_PATH_MAX];
    char analytics_zone[PARAMS_PATH_MAX]; /* a zone or cluster name, not a path */
    char simulation[PARAMS_PATH_MAX];
    /* reduction (model_reduce.h) */
    double compression;        /* ratio >= 1: bytes moved = bytes / compression; 1 = none */
    double compression_cost;   /* reference-core s per element compressed (simulation side) */
    double decompression_cost; /* reference-core s per element restored (analytics side) */
    long decimation;           /* keep every decimation-th element along each dimension */
    double decimation_cost;    /* reference-core s per element of the full state scanned */
    /* staging: bytes per staging server (dtl=staging) */
    double staging_memory;
    double extra[PARAMS_EXTRA]; /* a simulation profile's parameters (params_declare) */
};

struct param_desc {
    const char *key;  /* JSON key, Lua field; the CLI flag is "--" + key with '-' for '_' */
    const char *unit; /* shown next to the value */
    enum param_type type;
    size_t offset; /* into struct params */
    double def, min, max;
    double step; /* one slider step: added (linear) or multiplied (log) */
    enum param_scale scale;
    const char *const *choices; /* PARAM_CHOICE only, NULL-terminated */
    const char *def_str;        /* PARAM_PATH default */
    const char *help;
    bool slider; /* whether the explorer offers it as a slider */
};

extern const struct param_desc *const param_table; /* [PARAM_COUNT] */

/* Activates the next extra slot with d (key, unit, help copied; type PARAM_REAL, offset and
 * slider set here). Start-up only, before threads. -1 with a one-line message in err when the
 * key is taken or malformed, the range or default is wrong, or every slot is in use. */
int params_declare(const struct param_desc *d, char *err, size_t errlen);
/* Deactivates every extra slot (tests; a process that switches profiles). */
void params_declare_reset(void);

/* Whether p runs user Lua to be modelled: a Lua analytics or a simulation profile (then only a
 * process that may run it, never a UI thread, evaluates it). */
bool params_user_lua(const struct params *p);

/* Whether a PARAM_PATH parameter holds a name (a zone of the platform) rather than a path. */
bool params_is_name(int id);

/* The one lookup of a parameter by name, wherever a name is read (flags, axes, presets, Lua,
 * JSON): its key, '-' and '_' being the same ("data-scaling", "data_scaling"). -1 if unknown.
 * _n: the first len bytes of name. */
int params_find(const char *key);
int params_find_n(const char *name, size_t len);

/* Linked names "stride:compute-scaling" into at most max ids, in order. Returns how many, or -1
 * with a one-line message (an empty or unknown name, one named twice, too many). */
int params_find_linked(const char *names, int *ids, int max, char *err, size_t errlen);

void params_defaults(struct params *p);

/* Parses `text` into parameter `id` and checks its own range. On error returns -1 and writes a
 * one-line message naming the parameter and what was expected into err (PARAMS_ERR_MAX). */
int params_set(struct params *p, int id, const char *text, char *err);

/* Sets a numeric or choice parameter from a double (choices by index). Same checks as params_set.
 */
int params_set_number(struct params *p, int id, double value, char *err);

/* Cross-parameter checks: realisable ratio (not for mapping=inline, which ignores it), stride <=
 * iterations, hostfile given when needed. */
int params_validate(const struct params *p, char *err);

/* The value of a parameter as a double (choice -> index, path -> 0). */
double params_get_number(const struct params *p, int id);

/* The value formatted for display or JSON-free text ("15", "7.93e-07", "insitu", "platforms/x"). */
void params_format(const struct params *p, int id, char *buf, size_t len);

/* Moves a slider by `steps` (negative: down); coarse multiplies the step. Ratios move through the
 * values the node's cores can realise. Returns 1 if the value changed, 0 if it was at a bound. */
int params_step(struct params *p, int id, int steps, bool coarse);

/* Slider position of the current value in [0, 1]. */
double params_position(const struct params *p, int id);

/* Realisable ratios for a node of `cores` cores: R such that (R + 1) divides cores and R >= 1.
 * Writes at most max of them ascending into out and returns how many exist. An array of
 * PARAMS_RATIOS_MAX always holds them all: no cores_per_node in range has more than 31. */
#define PARAMS_RATIOS_MAX 64
int params_valid_ratios(long cores, long *out, int max);

/* Parses "--key value" / "--key=value" flags from argv[*i]; advances *i. Returns 1 if argv[*i]
 * was a parameter flag and was applied, 0 if it is not a parameter flag, -1 on error (err set). */
int params_parse_flag(struct params *p, int argc, char **argv, int *i, char *err);

/* "Did you mean": the one name of names (n of them, or up to a NULL) a typo of word would be
 * (an edit or two away, or its start), NULL if none or two are as near. _key: among the
 * parameters' names ('-' and '_' the same letter). */
const char *params_nearest(const char *word, const char *const *names, int n);
const char *params_nearest_key(const char *word);

/* What a parameter accepts, in words: "an integer in [1, 1024]", "one of fast, full", ... */
void params_describe_range(int id, char *buf, size_t len);

/* Prints one line per parameter for --help. */
void params_print_help(FILE *out);

/* Prints the parameter table as a Markdown table: the README's is generated from it
 * (`make docs`; the CLI tests check the README is current). */
void params_print_markdown(FILE *out);

/* A stable text key of the whole configuration (for caches): "nodes=1;cores_per_node=32;...",
 * paths percent-encoded (';', '=', '%'). A buffer of PARAMS_CANONICAL_MAX bytes always holds it
 * whole (keys and numbers < 64 bytes each, five strings of up to 3 bytes per byte). */
#define PARAMS_CANONICAL_MAX (PARAM_MAX * 64 + 5 * 3 * PARAMS_PATH_MAX)
void params_canonical(const struct params *p, char *buf, size_t len);

#endif
