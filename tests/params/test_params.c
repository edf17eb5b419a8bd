/*
 * Host unit test of the boot-parameter parser (kernel/params/params.c),
 * the same file the kernel and build/host/params run, over a table of
 * every parameter kind with its own storage.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/params/param.h"
#include "tests/lib/tap_check.h"

static int mode, flag;
static uint32_t count;
static uint64_t list, rngs;
static struct param_hex seed;
static char word[8], path[16];
static int rng;

#define P(n, k, from, names_, def_, mn, mx, sz, a)                                                 \
	{                                                                                          \
		.name = n, .names = names_, .def = def_, .help = "h", .kind = k,                   \
		.names_from = from, .min = mn, .max = mx, .size = sz, .arg = a                     \
	}

static const struct kernel_param table[] = {
	P("mode", PARAM_ENUM, PARAM_NAMES_INLINE, "bench|test|shell", "test", 0, 0, 0, &mode),
	P("count", PARAM_UINT, 0, "", "250", 20, 10000, 0, &count),
	P("seed", PARAM_HEX, 0, "", "", 0, 0, 4, &seed),
	P("word", PARAM_STRING, 0, "", "", 0, 0, sizeof(word), word),
	P("init", PARAM_PATH, 0, "", "", 0, 0, sizeof(path), path),
	P("list", PARAM_LIST, PARAM_NAMES_INLINE, "a|b|c", "all", 0, 0, 0, &list),
	P("rng", PARAM_ENUM, PARAM_NAMES_RNG, "", "md4-2.6.30", 0, 0, 0, &rng),
	P("variants", PARAM_LIST, PARAM_NAMES_RNG, "", "all", 0, 0, 0, &rngs),
	P("quiet", PARAM_FLAG, 0, "", "", 0, 0, 0, &flag),
};
#define END (table + sizeof(table) / sizeof(table[0]))

static char err[1024];

static const char *parse(const char *line)
{
	err[0] = '\0';
	return parse_args(line, table, END, 0, err, sizeof(err));
}

START_TEST(defaults_then_values)
{
	ck_assert_ptr_nonnull(parse(""));
	ck_assert_int_eq(mode, 1);
	ck_assert_uint_eq(count, 250);
	ck_assert_uint_eq(list, 7);
	ck_assert_int_eq(flag, 0);
	ck_assert_uint_eq(seed.len, 0);
	ck_assert_str_eq(word, "");
	ck_assert_ptr_nonnull(
		parse("  mode=shell count=20 seed=00fF word=abcdefg init=/bin/x list=c,a quiet "));
	ck_assert_int_eq(mode, 2);
	ck_assert_uint_eq(count, 20);
	ck_assert_uint_eq(seed.len, 2);
	ck_assert_uint_eq(seed.bytes[1], 0xff);
	ck_assert_str_eq(word, "abcdefg");
	ck_assert_str_eq(path, "/bin/x");
	ck_assert_uint_eq(list, 5);
	ck_assert_int_eq(flag, 1);
	/* a second parse starts from the defaults again */
	ck_assert_ptr_nonnull(parse("count=10000"));
	ck_assert_int_eq(mode, 1);
	ck_assert_uint_eq(count, 10000);
	ck_assert_int_eq(flag, 0);
}
END_TEST

START_TEST(rng_names_from_the_registry)
{
	ck_assert_ptr_nonnull(parse(""));
	ck_assert_int_eq(rng, 2); /* rng/registry.c's order */
	ck_assert_ptr_nonnull(parse("rng=prandom variants=md4-2.6.30,prandom"));
	ck_assert_int_eq(rng, 0);
	ck_assert_uint_eq(rngs, 5);
	ck_assert_ptr_null(parse("variants=md4-2.6.30,nope"));
	ck_assert_ptr_nonnull(strstr(err, "bad value 'nope' for variants (accepted: prandom|"));
	ck_assert_ptr_null(parse("rng=nope"));
	ck_assert_ptr_nonnull(strstr(err, "bad value 'nope' for rng (accepted: prandom|"));
	ck_assert_ptr_nonnull(strstr(err, "|rdrand)"));
}
END_TEST

static const struct {
	const char *line, *message;
} bad[] = {
	{"mode=nonsense", "bad value 'nonsense' for mode (accepted: bench|test|shell)"},
	{"mode=", "bad value '' for mode (accepted: bench|test|shell)"},
	{"count=19", "bad value '19' for count (accepted: an integer from 20 to 10000)"},
	{"count=10001", "bad value '10001' for count"},
	{"count=99999999999999999999", "bad value '99999999999999999999' for count"},
	{"count=-1", "bad value '-1' for count"},
	{"count=1x", "bad value '1x' for count"},
	{"seed=abc", "bad value 'abc' for seed (accepted: 1 to 4 bytes as an even number"},
	{"seed=zz", "bad value 'zz' for seed"},
	{"seed=0011223344", "bad value '0011223344' for seed"},
	{"seed=", "bad value '' for seed"},
	{"word=abcdefgh", "bad value 'abcdefgh' for word (accepted: up to 7 characters)"},
	{"init=bin/x", "bad value 'bin/x' for init (accepted: an absolute path of at most 15"},
	{"list=a,d", "bad value 'd' for list (accepted: a|b|c, comma-separated, or all)"},
	{"list=a,", "bad value '' for list"},
	{"quiet=1", "bad value '1' for quiet"},
	{"nokey", "'nokey' is not of the form key=value"},
	{"mode", "'mode' is not of the form key=value"},
	{"colour=blue", "unknown key 'colour' (accepted keys: mode count seed word init list rng "
			"variants quiet, and ' -- ' before init's arguments)"},
};

START_TEST(bad_lines)
{
	mode = 1;
	ck_assert_msg(parse(bad[_i].line) == NULL, "'%s' accepted", bad[_i].line);
	ck_assert_msg(strstr(err, bad[_i].message), "'%s': got '%s'", bad[_i].line, err);
}
END_TEST

START_TEST(check_only_writes_nothing)
{
	ck_assert_ptr_nonnull(parse("mode=shell"));
	ck_assert_ptr_nonnull(
		parse_args("mode=bench count=30 quiet word=x", table, END, 1, err, sizeof(err)));
	ck_assert_int_eq(mode, 2);
	ck_assert_uint_eq(count, 250);
	ck_assert_int_eq(flag, 0);
	ck_assert_ptr_null(parse_args("mode=x", table, END, 1, err, sizeof(err)));
	ck_assert_str_eq(err, "bad value 'x' for mode (accepted: bench|test|shell)");
}
END_TEST

START_TEST(init_args_after_dashes)
{
	const char *rest = parse("mode=shell -- count=3 two");

	ck_assert_ptr_nonnull(rest);
	ck_assert_str_eq(rest, " count=3 two");
	ck_assert_uint_eq(count, 250); /* init's words are not the kernel's */
	ck_assert_str_eq(parse("mode=shell"), "");
}
END_TEST

START_TEST(long_word_and_small_buffer)
{
	char line[400], small[16];

	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	ck_assert_ptr_null(parse(line));
	ck_assert_ptr_nonnull(strstr(err, "command-line word too long (399 characters)"));
	ck_assert_ptr_null(parse_args("colour=blue", table, END, 1, small, sizeof(small)));
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
}
END_TEST

static int help_lines;
static char help_text[4096];

static void collect(const char *line)
{
	help_lines++;
	strncat(help_text, line, sizeof(help_text) - strlen(help_text) - 2);
	strcat(help_text, "\n");
}

START_TEST(help_names_every_key)
{
	params_help(table, END, collect);
	ck_assert_int_eq(help_lines, (int)(END - table));
	ck_assert_ptr_nonnull(strstr(help_text, "mode=\n    h; default test\n    accepted: "
						"bench|test|shell\n"));
	ck_assert_ptr_nonnull(strstr(help_text, "quiet\n    h; default off\n"));
	ck_assert_ptr_nonnull(strstr(help_text, "count=\n    h; default 250\n    accepted: an "
						"integer from 20 to 10000\n"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("params");
	TCase *tc = tcase_create("parse_args");

	tcase_add_test(tc, defaults_then_values);
	tcase_add_test(tc, rng_names_from_the_registry);
	tcase_add_loop_test(tc, bad_lines, 0, sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, check_only_writes_nothing);
	tcase_add_test(tc, init_args_after_dashes);
	tcase_add_test(tc, long_word_and_small_buffer);
	tcase_add_test(tc, help_names_every_key);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
