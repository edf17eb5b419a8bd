#include "kernel/run/run.h"
#include "kernel/lib/string.h"
#include "kernel/params/param.h"
#include "rng/rng.h"

int run_mode;
char run_suite[32];
uint32_t run_samples;
uint32_t run_ensembles;
uint64_t run_variants;

param_enum(mode, run_mode, "bench|test|shell|attack|fuzz", "bench", "the job this boot runs");
param_string(suite, run_suite, "suites / test group / strategies to run, comma list (all)");
param_uint(samples, run_samples, 1, 10000000, "", "samples per point (none: the suite's own)");
param_uint(ensembles, run_ensembles, 1, 100000, "", "bench ensembles (none: the suite's own)");
param_rng_list(variants, run_variants, "all",
	       "RNG variants the bench suites, ASLR suite and attack lab measure");

static const char *const mode_names[] = {"bench", "test", "shell", "attack", "fuzz"};

const char *mode_name(int m)
{
	return (unsigned)m < sizeof(mode_names) / sizeof(mode_names[0]) ? mode_names[m] : "?";
}

bool run_variant_chosen(int i)
{
	return param_list_has(run_variants, i);
}

int run_variant_count(void)
{
	int n = 0;

	for (int i = 0; rng_variants[i]; i++)
		n += run_variant_chosen(i);
	return n;
}

/* Whether the comma list `list` holds the word w (of length n). */
static bool list_has(const char *list, const char *w, size_t n)
{
	while (*list) {
		size_t k = 0;

		while (list[k] && list[k] != ',' && list[k] != '|')
			k++;
		if (k == n && !strncmp(list, w, n))
			return true;
		list += k + (list[k] != '\0');
	}
	return false;
}

bool run_suite_chosen(const char *name)
{
	return !run_suite[0] || list_has(run_suite, name, strlen(name));
}

int run_suite_check(const char *accepted, char *err, size_t errlen)
{
	const char *s = run_suite;

	while (*s) {
		size_t n = 0;
		char one[32];

		while (s[n] && s[n] != ',')
			n++;
		if (!list_has(accepted, s, n)) {
			memcpy(one, s, n);
			one[n] = '\0';
			return param_bad_value(err, errlen, "suite", one, accepted);
		}
		s += n + (s[n] != '\0');
	}
	return 0;
}
