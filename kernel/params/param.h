/*
 * Boot parameters, declared by the code that owns them (as Linux's
 * core_param/module_param): each declaration names the key, how its value
 * is parsed, what it accepts, its default, one help line, and the owner's
 * variable, which is the only storage.  The declarations sit in the
 * ".kparams" section; parse_args() walks it.
 *
 * Every field is plain data (no function pointers, strings inline), so
 * the section dumped from kernel.elf (build/params.bin) is the same table
 * for build/host/params, which runs this very parser before QEMU starts.
 */
#ifndef KERNEL_PARAMS_PARAM_H
#define KERNEL_PARAMS_PARAM_H

#include <stddef.h>
#include <stdint.h>

enum param_kind {
	PARAM_ENUM,   /* one of names ("a|b|c"); the index into an int */
	PARAM_UINT,   /* decimal min..max into a uint32_t */
	PARAM_HEX,    /* an even number of hex digits into a struct param_hex */
	PARAM_STRING, /* at most size-1 characters into a char[size] */
	PARAM_PATH,   /* as PARAM_STRING, and absolute */
	PARAM_LIST,   /* comma list of names into a uint64_t bit mask; "all" = every one */
	PARAM_FLAG,   /* a bare word (Linux's "quiet"): sets an int to 1 */
};

/* Where a PARAM_ENUM's or PARAM_LIST's names come from. */
enum param_names {
	PARAM_NAMES_INLINE, /* names: "a|b|c" */
	PARAM_NAMES_RNG,    /* the RNG variants, in rng/registry.c's order */
};

#define PARAM_HEX_MAX 64

struct param_hex {
	size_t len;
	uint8_t bytes[PARAM_HEX_MAX];
};

struct kernel_param {
	char name[24];
	char names[104]; /* PARAM_NAMES_INLINE: "a|b|c" */
	char def[32];	 /* the default, as a value of the key ("" = none) */
	char help[96];
	uint8_t kind;	    /* enum param_kind */
	uint8_t names_from; /* enum param_names */
	uint32_t min, max;  /* PARAM_UINT */
	uint32_t size;	    /* PARAM_STRING/PATH: sizeof the buffer; PARAM_HEX: max bytes */
	void *arg;	    /* the owner's variable (meaningless in the host's copy) */
} __attribute__((aligned(64)));

_Static_assert(sizeof(struct kernel_param) % 64 == 0, "the section is an array");

#define PARAM_DEFINE(name_, kind_, from_, names_, def_, min_, max_, size_, arg_, help_)            \
	static const struct kernel_param __param_##name_                                           \
		__attribute__((used, section(".kparams"))) = {                                     \
			.name = #name_,                                                            \
			.names = names_,                                                           \
			.def = def_,                                                               \
			.help = help_,                                                             \
			.kind = kind_,                                                             \
			.names_from = from_,                                                       \
			.min = min_,                                                               \
			.max = max_,                                                               \
			.size = size_,                                                             \
			.arg = arg_,                                                               \
	}

/* int var = index of the value in "a|b|c" */
#define param_enum(name, var, names, def, help)                                                    \
	PARAM_DEFINE(name, PARAM_ENUM, PARAM_NAMES_INLINE, names, def, 0, 0, 0, &(var), help)
/* int var = index of an RNG variant (rng_variants[]) */
#define param_rng(name, var, def, help)                                                            \
	PARAM_DEFINE(name, PARAM_ENUM, PARAM_NAMES_RNG, "", def, 0, 0, 0, &(var), help)
/* uint64_t var = bit i set for each chosen RNG variant i */
#define param_rng_list(name, var, def, help)                                                       \
	PARAM_DEFINE(name, PARAM_LIST, PARAM_NAMES_RNG, "", def, 0, 0, 0, &(var), help)
/* uint64_t var = bit i set for each chosen name i of "a|b|c" */
#define param_list(name, var, names, def, help)                                                    \
	PARAM_DEFINE(name, PARAM_LIST, PARAM_NAMES_INLINE, names, def, 0, 0, 0, &(var), help)
/* uint32_t var, min..max; def "" leaves 0 (the user's default) */
#define param_uint(name, var, min, max, def, help)                                                 \
	PARAM_DEFINE(name, PARAM_UINT, 0, "", def, min, max, 0, &(var), help)
/* struct param_hex var, 1..max bytes */
#define param_hex(name, var, max, help)                                                            \
	PARAM_DEFINE(name, PARAM_HEX, 0, "", "", 0, 0, max, &(var), help)
/* char var[N] */
#define param_string(name, var, help)                                                              \
	PARAM_DEFINE(name, PARAM_STRING, 0, "", "", 0, 0, sizeof(var), (var), help)
#define param_path(name, var, help)                                                                \
	PARAM_DEFINE(name, PARAM_PATH, 0, "", "", 0, 0, sizeof(var), (var), help)
/* int var = 1 when the bare word is present */
#define param_flag(name, var, help) PARAM_DEFINE(name, PARAM_FLAG, 0, "", "", 0, 0, 0, &(var), help)

extern const struct kernel_param __params_start[], __params_end[];

/*
 * Sets every parameter of [start, end) to its default, then applies the
 * words of line.  Returns the text after " -- " (init's arguments, as
 * Linux's parse_args), "" when there is none, or NULL with a message in err.
 * With check_only, nothing is written (the host's check).
 */
const char *parse_args(const char *line, const struct kernel_param *start,
		       const struct kernel_param *end, int check_only, char *err, size_t errlen);

/* The i-th name a parameter accepts (NULL past the last), and how many. */
const char *param_name_at(const struct kernel_param *kp, int i, char *buf, size_t len);
int param_count(const struct kernel_param *kp);

/* "a|b|c": the names kp accepts, for messages and help. */
void param_accepted(const struct kernel_param *kp, char *buf, size_t len);

/*
 * The standard message for a value that a job, not the parser, found
 * wrong (e.g. a suite name that depends on mode=):
 * "bad value 'X' for KEY (accepted: ACCEPTED)".
 */
int param_bad_value(char *err, size_t errlen, const char *key, const char *val,
		    const char *accepted);

/* One line per parameter: name=accepted (default) help. */
void params_help(const struct kernel_param *start, const struct kernel_param *end,
		 void (*out)(const char *line));

/* Bit i of a PARAM_LIST mask; the jobs iterate "every chosen variant". */
static inline int param_list_has(uint64_t mask, int i)
{
	return i < 64 && (mask >> i & 1);
}

#endif
