/*
 * The kernel command line (cmdline.txt, or run-qemu.sh --cmdline), parsed
 * against the parameters their owners declare (kernel/params/param.h).
 *
 * Why strict: the line decides what a benchmark run measured.  A typo that
 * silently fell back to a default would produce a log that looks right and
 * is about something else, so an unknown key or a bad value stops the boot
 * with a message naming the key and what it accepts.
 *
 * Freestanding: the host's build/host/params links this file unchanged.
 */
#include "common/hex.h"
#include "kernel/params/param.h"
#include "rng/rng.h"

/*
 * Its own few string helpers: printk (kernel/lib) declares parameters
 * too, so this directory cannot include kernel/lib.
 */
static size_t slen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

static int seq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* a's first n bytes are b, and b ends there */
static int seqn(const char *a, size_t n, const char *b)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i] || !b[i])
			return 0;
	return !b[n];
}

static void scopy(char *dst, const char *src, size_t size)
{
	size_t n = slen(src);

	if (!size)
		return;
	if (n >= size)
		n = size - 1;
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i];
	dst[n] = '\0';
}

/* A message built piece by piece, always NUL-terminated, cut at its size. */
struct msg {
	char *buf;
	size_t size, n;
};

static struct msg msg_begin(char *buf, size_t size)
{
	if (size)
		buf[0] = '\0';
	return (struct msg){buf, size, 0};
}

static void put(struct msg *m, const char *s)
{
	for (; *s; s++)
		if (m->n + 1 < m->size) {
			m->buf[m->n++] = *s;
			m->buf[m->n] = '\0';
		}
}

static void put_uint(struct msg *m, uint64_t v)
{
	char d[24];
	int i = (int)sizeof(d) - 1;

	d[i] = '\0';
	do
		d[--i] = (char)('0' + v % 10);
	while ((v /= 10));
	put(m, d + i);
}

/* The names of "a|b|c", or of the RNG variants. */
const char *param_name_at(const struct kernel_param *kp, int i, char *buf, size_t len)
{
	const char *p = kp->names;

	if (kp->names_from == PARAM_NAMES_RNG) {
		for (int k = 0; rng_variants[k]; k++)
			if (k == i)
				return rng_variants[k]->name;
		return NULL;
	}
	if (!*p)
		return NULL;
	for (; i > 0; i--) {
		while (*p && *p != '|')
			p++;
		if (!*p++)
			return NULL;
	}
	size_t n = 0;

	while (p[n] && p[n] != '|')
		n++;
	if (n >= len)
		n = len - 1;
	for (size_t k = 0; k < n; k++)
		buf[k] = p[k];
	buf[n] = '\0';
	return buf;
}

int param_count(const struct kernel_param *kp)
{
	char tmp[64];
	int n = 0;

	while (param_name_at(kp, n, tmp, sizeof(tmp)))
		n++;
	return n;
}

static int param_pick(const struct kernel_param *kp, const char *val, size_t vlen)
{
	char tmp[64];
	const char *name;

	for (int i = 0; (name = param_name_at(kp, i, tmp, sizeof(tmp))); i++)
		if (seqn(val, vlen, name))
			return i;
	return -1;
}

void param_accepted(const struct kernel_param *kp, char *buf, size_t len)
{
	struct msg m = msg_begin(buf, len);
	char tmp[64];
	const char *name;

	switch (kp->kind) {
	case PARAM_ENUM:
	case PARAM_LIST:
		for (int i = 0; (name = param_name_at(kp, i, tmp, sizeof(tmp))); i++) {
			put(&m, i ? "|" : "");
			put(&m, name);
		}
		break;
	case PARAM_UINT:
		put(&m, "an integer from ");
		put_uint(&m, kp->min);
		put(&m, " to ");
		put_uint(&m, kp->max);
		break;
	case PARAM_HEX:
		put(&m, "1 to ");
		put_uint(&m, kp->size);
		put(&m, " bytes as an even number of hex digits");
		break;
	case PARAM_STRING:
		put(&m, "up to ");
		put_uint(&m, kp->size - 1);
		put(&m, " characters");
		break;
	case PARAM_PATH:
		put(&m, "an absolute path of at most ");
		put_uint(&m, kp->size - 1);
		put(&m, " characters");
		break;
	case PARAM_FLAG:
		put(&m, "the bare word, no value");
		break;
	}
}

int param_bad_value(char *err, size_t errlen, const char *key, const char *val,
		    const char *accepted)
{
	struct msg m = msg_begin(err, errlen);

	put(&m, "bad value '");
	put(&m, val);
	put(&m, "' for ");
	put(&m, key);
	put(&m, " (accepted: ");
	put(&m, accepted);
	put(&m, ")");
	return -1;
}

static int bad(const struct kernel_param *kp, const char *val, char *err, size_t errlen)
{
	char acc[512];

	param_accepted(kp, acc, sizeof(acc));
	if (kp->kind == PARAM_LIST)
		scopy(acc + slen(acc), ", comma-separated, or all", sizeof(acc) - slen(acc));
	return param_bad_value(err, errlen, kp->name, val, acc);
}

/* Decimal only, no sign, no overflow; returns -1 on anything else. */
static int parse_uint(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return -1;
	}
	*out = (uint32_t)v;
	return 0;
}

static int parse_hex(const char *s, uint32_t max, struct param_hex *out)
{
	size_t n = slen(s);
	struct param_hex h = {0};

	if (n % 2 || n / 2 > max || n / 2 > sizeof(h.bytes))
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hex_to_bin((unsigned char)s[2 * i]),
		    lo = hex_to_bin((unsigned char)s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		h.bytes[i] = (uint8_t)(hi << 4 | lo);
	}
	h.len = n / 2;
	if (out)
		*out = h;
	return 0;
}

/* "a,b,c" or "all"; the first bad element goes to *bad_at. */
static int parse_list(const struct kernel_param *kp, const char *s, uint64_t *mask,
		      const char **bad_at, size_t *bad_len)
{
	uint64_t m = 0;

	if (seq(s, "all")) {
		int n = param_count(kp);

		*mask = n >= 64 ? ~0ULL : (1ULL << n) - 1;
		return 0;
	}
	for (;;) {
		size_t n = 0;
		int i;

		while (s[n] && s[n] != ',')
			n++;
		if ((i = param_pick(kp, s, n)) < 0 || i >= 64) {
			*bad_at = s;
			*bad_len = n;
			return -1;
		}
		m |= 1ULL << i;
		if (!s[n])
			break;
		s += n + 1;
	}
	*mask = m;
	return 0;
}

/* One value for kp; with check_only nothing is stored.  Returns 0 or -1 with err. */
static int param_set(const struct kernel_param *kp, const char *val, int check_only, char *err,
		     size_t errlen)
{
	uint32_t u;
	uint64_t mask;
	int i;

	switch (kp->kind) {
	case PARAM_ENUM:
		if ((i = param_pick(kp, val, slen(val))) < 0)
			return bad(kp, val, err, errlen);
		if (!check_only)
			*(int *)kp->arg = i;
		return 0;
	case PARAM_LIST: {
		const char *at = val;
		size_t n = slen(val);

		if (parse_list(kp, val, &mask, &at, &n)) {
			char one[64];

			if (n >= sizeof(one))
				n = sizeof(one) - 1;
			for (size_t k = 0; k < n; k++)
				one[k] = at[k];
			one[n] = '\0';
			return bad(kp, one, err, errlen);
		}
		if (!check_only)
			*(uint64_t *)kp->arg = mask;
		return 0;
	}
	case PARAM_UINT:
		if (parse_uint(val, kp->max, &u) || u < kp->min)
			return bad(kp, val, err, errlen);
		if (!check_only)
			*(uint32_t *)kp->arg = u;
		return 0;
	case PARAM_HEX:
		if (!*val || parse_hex(val, kp->size, check_only ? NULL : kp->arg))
			return bad(kp, val, err, errlen);
		return 0;
	case PARAM_PATH:
		/* Linux takes any string; a relative one would depend on the cwd (/). */
		if (val[0] != '/')
			return bad(kp, val, err, errlen);
		/* fall through */
	case PARAM_STRING:
		if (!*val || slen(val) >= kp->size)
			return bad(kp, val, err, errlen);
		if (!check_only)
			scopy(kp->arg, val, kp->size);
		return 0;
	case PARAM_FLAG:
		return bad(kp, val, err, errlen); /* a value given to a bare word */
	}
	return bad(kp, val, err, errlen);
}

static void set_default(const struct kernel_param *kp)
{
	char err[8];

	switch (kp->kind) {
	case PARAM_ENUM:
	case PARAM_LIST:
	case PARAM_UINT:
		if (kp->def[0])
			param_set(kp, kp->def, 0, err, sizeof(err));
		else if (kp->kind == PARAM_UINT)
			*(uint32_t *)kp->arg = 0;
		else if (kp->kind == PARAM_LIST)
			*(uint64_t *)kp->arg = 0;
		else
			*(int *)kp->arg = 0;
		break;
	case PARAM_HEX:
		*(struct param_hex *)kp->arg = (struct param_hex){0};
		break;
	case PARAM_STRING:
	case PARAM_PATH:
		for (uint32_t i = 0; i < kp->size; i++)
			((char *)kp->arg)[i] = '\0';
		break;
	case PARAM_FLAG:
		*(int *)kp->arg = 0;
		break;
	}
}

static const struct kernel_param *find(const struct kernel_param *start,
				       const struct kernel_param *end, const char *key)
{
	for (const struct kernel_param *kp = start; kp < end; kp++)
		if (seq(kp->name, key))
			return kp;
	return NULL;
}

static void unknown_key(const struct kernel_param *start, const struct kernel_param *end,
			const char *key, char *err, size_t errlen)
{
	struct msg m = msg_begin(err, errlen);

	put(&m, "unknown key '");
	put(&m, key);
	put(&m, "' (accepted keys:");
	for (const struct kernel_param *kp = start; kp < end; kp++) {
		put(&m, " ");
		put(&m, kp->name);
	}
	put(&m, ", and ' -- ' before init's arguments)");
}

const char *parse_args(const char *line, const struct kernel_param *start,
		       const struct kernel_param *end, int check_only, char *err, size_t errlen)
{
	char tok[272]; /* "init=" and a 255-character path */

	if (!check_only)
		for (const struct kernel_param *kp = start; kp < end; kp++)
			set_default(kp);
	while (*line) {
		const struct kernel_param *kp;
		size_t n = 0;
		char *eq;

		while (*line == ' ')
			line++;
		if (!*line)
			break;
		while (line[n] && line[n] != ' ')
			n++;
		if (n >= sizeof(tok)) {
			struct msg m = msg_begin(err, errlen);

			put(&m, "command-line word too long (");
			put_uint(&m, n);
			put(&m, " characters)");
			return NULL;
		}
		for (size_t k = 0; k < n; k++)
			tok[k] = line[k];
		tok[n] = '\0';
		line += n;
		if (seq(tok, "--"))
			return line;
		eq = tok;
		while (*eq && *eq != '=')
			eq++;
		if (!*eq) {
			kp = find(start, end, tok);
			if (kp && kp->kind == PARAM_FLAG) {
				if (!check_only)
					*(int *)kp->arg = 1;
				continue;
			}
			struct msg m = msg_begin(err, errlen);

			put(&m, "'");
			put(&m, tok);
			put(&m, "' is not of the form key=value");
			return NULL;
		}
		*eq = '\0';
		kp = find(start, end, tok);
		if (!kp) {
			unknown_key(start, end, tok, err, errlen);
			return NULL;
		}
		if (param_set(kp, eq + 1, check_only, err, errlen))
			return NULL;
	}
	return line;
}

void params_help(const struct kernel_param *start, const struct kernel_param *end,
		 void (*out)(const char *line))
{
	char line[800], acc[512];

	for (const struct kernel_param *kp = start; kp < end; kp++) {
		struct msg m = msg_begin(line, sizeof(line));

		param_accepted(kp, acc, sizeof(acc));
		put(&m, kp->name);
		put(&m, kp->kind == PARAM_FLAG ? "\n    " : "=\n    ");
		put(&m, kp->help);
		put(&m, "; default ");
		put(&m, kp->kind == PARAM_FLAG ? "off" : kp->def[0] ? kp->def : "none");
		put(&m, "\n    accepted: ");
		put(&m, acc);
		if (kp->kind == PARAM_LIST)
			put(&m, ", comma-separated, or all");
		out(line);
	}
}
