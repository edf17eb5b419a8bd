/*
 * QR code encoder: ISO/IEC 18004 versions 1-20, levels L and M.
 *
 * The steps, each a section below: the block tables, the bit stream (mode,
 * count, data, terminator, pad), Reed-Solomon over GF(256) with the
 * polynomial 0x11d, the function patterns, the data placement in the
 * two-column zigzag, and the eight masks scored by the standard's penalty
 * rules.  Coordinates are (x, y) = (column, row), row 0 at the top.
 */
#include "common/qr.h"

/* ---- the tables (ISO/IEC 18004, table 9: error correction characteristics) ---- */

/* Per version and level: ECC codewords per block, short blocks and their data
 * codewords, long blocks (one data codeword more). */
struct qr_block_row {
	uint8_t ecc, nshort, short_len, nlong;
};

static const struct qr_block_row block_table[2][QR_MAX_VERSION + 1] = {
	/* L */
	{{0, 0, 0, 0},	  {7, 1, 19, 0},  {10, 1, 34, 0},  {15, 1, 55, 0},  {20, 1, 80, 0},
	 {26, 1, 108, 0}, {18, 2, 68, 0}, {20, 2, 78, 0},  {24, 2, 97, 0},  {30, 2, 116, 0},
	 {18, 2, 68, 2},  {20, 4, 81, 0}, {24, 2, 92, 2},  {26, 4, 107, 0}, {30, 3, 115, 1},
	 {22, 5, 87, 1},  {24, 5, 98, 1}, {28, 1, 107, 5}, {30, 5, 120, 1}, {28, 3, 113, 4},
	 {28, 3, 107, 5}},
	/* M */
	{{0, 0, 0, 0},	 {10, 1, 16, 0}, {16, 1, 28, 0},  {26, 1, 44, 0}, {18, 2, 32, 0},
	 {24, 2, 43, 0}, {16, 4, 27, 0}, {18, 4, 31, 0},  {22, 2, 38, 2}, {22, 3, 36, 2},
	 {26, 4, 43, 1}, {30, 1, 50, 4}, {22, 6, 36, 2},  {22, 8, 37, 1}, {24, 4, 40, 5},
	 {24, 5, 41, 5}, {28, 7, 45, 3}, {28, 10, 46, 1}, {26, 9, 43, 4}, {26, 3, 44, 11},
	 {26, 3, 41, 13}},
};

/* Alignment pattern centres per version (table E.1), 0-terminated. */
static const uint8_t align_table[QR_MAX_VERSION + 1][5] = {
	{0},
	{0},
	{6, 18},
	{6, 22},
	{6, 26},
	{6, 30},
	{6, 34},
	{6, 22, 38},
	{6, 24, 42},
	{6, 26, 46},
	{6, 28, 50},
	{6, 30, 54},
	{6, 32, 58},
	{6, 34, 62},
	{6, 26, 46, 66},
	{6, 26, 48, 70},
	{6, 26, 50, 74},
	{6, 30, 54, 78},
	{6, 30, 56, 82},
	{6, 30, 58, 86},
	{6, 34, 62, 90},
};

static const char alnum_chars[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:";

bool qr_blocks(int version, enum qr_ecc ecc, int *ecc_per_block, int *short_blocks, int *short_len,
	       int *long_blocks)
{
	const struct qr_block_row *r;

	if (version < 1 || version > QR_MAX_VERSION || (ecc != QR_ECC_L && ecc != QR_ECC_M))
		return false;
	r = &block_table[ecc][version];
	*ecc_per_block = r->ecc;
	*short_blocks = r->nshort;
	*short_len = r->short_len;
	*long_blocks = r->nlong;
	return true;
}

/* Modules left for codewords once the function patterns are placed, in bytes. */
int qr_total_codewords(int version)
{
	int n, bits;

	if (version < 1 || version > QR_MAX_VERSION)
		return 0;
	n = version / 7 + 2; /* alignment patterns per side, from version 2 */
	bits = (16 * version + 128) * version + 64;
	if (version >= 2)
		bits -= (25 * n - 10) * n - 55;
	if (version >= 7)
		bits -= 36;
	return bits / 8;
}

static int data_codewords(int version, enum qr_ecc ecc)
{
	int e = 0, ns = 0, sl = 0, nl = 0;

	if (!qr_blocks(version, ecc, &e, &ns, &sl, &nl))
		return 0;
	return ns * sl + nl * (sl + 1);
}

/* ---- the bit stream ---- */

struct bitbuf {
	uint8_t *buf;
	int cap_bits, len;
};

static void put_bits(struct bitbuf *b, uint32_t val, int n)
{
	for (int i = n - 1; i >= 0; i--, b->len++)
		if (b->len < b->cap_bits && (val >> i & 1))
			b->buf[b->len >> 3] |= (uint8_t)(0x80 >> (b->len & 7));
}

static int alnum_value(char c)
{
	for (int i = 0; alnum_chars[i]; i++)
		if (alnum_chars[i] == c)
			return i;
	return -1;
}

bool qr_is_alnum(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (alnum_value(text[i]) < 0)
			return false;
	return true;
}

static int count_bits(bool alnum, int version)
{
	if (alnum)
		return version < 10 ? 9 : 11; /* 13 from version 27 */
	return version < 10 ? 8 : 16;
}

static long stream_bits(bool alnum, size_t len, int version)
{
	long payload = alnum ? (long)(len / 2 * 11 + len % 2 * 6) : (long)len * 8;

	return 4 + count_bits(alnum, version) + payload;
}

size_t qr_alnum_capacity(int version, enum qr_ecc ecc)
{
	long bits = (long)data_codewords(version, ecc) * 8 - 4;
	size_t n;

	if (bits <= 0)
		return 0;
	bits -= count_bits(true, version);
	n = (size_t)(bits / 11 * 2 + (bits % 11 >= 6));
	return n;
}

/* Mode, count, data, terminator and pad codewords into qr->data. */
static void build_stream(struct qr_code *qr, const char *text, size_t len, bool alnum, int ndata)
{
	struct bitbuf b = {qr->data, ndata * 8, 0};

	for (int i = 0; i < ndata; i++)
		qr->data[i] = 0;
	put_bits(&b, alnum ? 0x2 : 0x4, 4);
	put_bits(&b, (uint32_t)len, count_bits(alnum, qr->version));
	for (size_t i = 0; alnum && i + 1 < len; i += 2)
		put_bits(&b, (uint32_t)(alnum_value(text[i]) * 45 + alnum_value(text[i + 1])), 11);
	if (alnum && len % 2)
		put_bits(&b, (uint32_t)alnum_value(text[len - 1]), 6);
	for (size_t i = 0; !alnum && i < len; i++)
		put_bits(&b, (uint8_t)text[i], 8);
	/* Terminator (up to four zero bits), then to a byte boundary: zeros already. */
	b.len = (b.len + 4 < ndata * 8 ? b.len + 4 : ndata * 8);
	b.len = (b.len + 7) & ~7;
	for (int i = b.len / 8, k = 0; i < ndata; i++, k++)
		qr->data[i] = k % 2 ? 0x11 : 0xec;
}

/* ---- Reed-Solomon ---- */

static uint8_t gf_mul(uint8_t a, uint8_t b)
{
	unsigned r = 0, x = a;

	for (; b; b >>= 1, x <<= 1) {
		if (x & 0x100)
			x ^= 0x11d;
		if (b & 1)
			r ^= x;
	}
	return (uint8_t)r;
}

/* The remainder of data(x) * x^ecc_len divided by the generator prod (x - 2^i). */
void qr_rs_ecc(const uint8_t *data, int n, int ecc_len, uint8_t *ecc)
{
	uint8_t gen[32] = {0};
	uint8_t root = 1;

	if (ecc_len < 1 || ecc_len > 31)
		return;
	/* gen holds the coefficients below the leading 1, highest degree first. */
	gen[ecc_len - 1] = 1;
	for (int i = 0; i < ecc_len; i++) {
		for (int j = 0; j < ecc_len; j++) {
			gen[j] = gf_mul(gen[j], root);
			if (j + 1 < ecc_len)
				gen[j] ^= gen[j + 1];
		}
		root = gf_mul(root, 2);
	}
	for (int i = 0; i < ecc_len; i++)
		ecc[i] = 0;
	for (int i = 0; i < n; i++) {
		uint8_t f = data[i] ^ ecc[0];

		for (int j = 0; j + 1 < ecc_len; j++)
			ecc[j] = ecc[j + 1] ^ gf_mul(gen[j], f);
		ecc[ecc_len - 1] = gf_mul(gen[ecc_len - 1], f);
	}
}

/* Splits qr->data into blocks, adds each block's ECC, interleaves into qr->out. */
static void add_ecc(struct qr_code *qr, enum qr_ecc ecc)
{
	int e = 0, ns = 0, sl = 0, nl = 0, nb, pos = 0, k = 0;
	uint8_t ecc_buf[31];
	uint8_t *eccs = qr->out + data_codewords(qr->version, ecc); /* ECC after the data */

	qr_blocks(qr->version, ecc, &e, &ns, &sl, &nl);
	nb = ns + nl;
	for (int b = 0; b < nb; b++) {
		int len = sl + (b >= ns);

		qr_rs_ecc(qr->data + pos, len, e, ecc_buf);
		for (int i = 0; i < e; i++)
			eccs[i * nb + b] = ecc_buf[i];
		pos += len;
	}
	/* Data interleaved: column i of every block in turn; short blocks end one early. */
	for (int i = 0; i <= sl; i++)
		for (int b = 0, start = 0; b < nb; start += sl + (b >= ns), b++)
			if (i < sl + (b >= ns))
				qr->out[k++] = qr->data[start + i];
}

/* ---- the function patterns ---- */

static void set_func(struct qr_code *qr, int x, int y, bool dark)
{
	if (x < 0 || y < 0 || x >= qr->size || y >= qr->size)
		return;
	qr->dark[y * qr->size + x] = dark;
	qr->func[y * qr->size + x] = 1;
}

/* A finder (7x7) centred at (cx, cy), with its light separator ring. */
static void finder(struct qr_code *qr, int cx, int cy)
{
	for (int dy = -4; dy <= 4; dy++)
		for (int dx = -4; dx <= 4; dx++) {
			int d = dx < 0 ? -dx : dx, e = dy < 0 ? -dy : dy, m = d > e ? d : e;

			set_func(qr, cx + dx, cy + dy, m != 2 && m != 4);
		}
}

static void alignment(struct qr_code *qr, int cx, int cy)
{
	for (int dy = -2; dy <= 2; dy++)
		for (int dx = -2; dx <= 2; dx++) {
			int d = dx < 0 ? -dx : dx, e = dy < 0 ? -dy : dy, m = d > e ? d : e;

			set_func(qr, cx + dx, cy + dy, m != 1);
		}
}

/* BCH(15,5): 2 level bits and 3 mask bits, 10 check bits, XOR 0x5412. */
uint32_t qr_format_bits(enum qr_ecc ecc, int mask)
{
	uint32_t data = (uint32_t)((ecc == QR_ECC_L ? 1 : 0) << 3 | (mask & 7)), rem = data;

	for (int i = 0; i < 10; i++)
		rem = (rem << 1) ^ ((rem >> 9) * 0x537);
	return (data << 10 | (rem & 0x3ff)) ^ 0x5412;
}

/* BCH(18,6) of the version number, generator 0x1f25 (versions 7 and up). */
uint32_t qr_version_bits(int version)
{
	uint32_t rem = (uint32_t)version;

	for (int i = 0; i < 12; i++)
		rem = (rem << 1) ^ ((rem >> 11) * 0x1f25);
	return (uint32_t)version << 12 | (rem & 0xfff);
}

static void draw_format(struct qr_code *qr, enum qr_ecc ecc, int mask)
{
	uint32_t bits = qr_format_bits(ecc, mask);
	int s = qr->size;

	/* The copy around the top-left finder. */
	for (int i = 0; i <= 5; i++)
		set_func(qr, 8, i, bits >> i & 1);
	set_func(qr, 8, 7, bits >> 6 & 1);
	set_func(qr, 8, 8, bits >> 7 & 1);
	set_func(qr, 7, 8, bits >> 8 & 1);
	for (int i = 9; i < 15; i++)
		set_func(qr, 14 - i, 8, bits >> i & 1);
	/* The copy split between the other two finders, and the dark module. */
	for (int i = 0; i < 8; i++)
		set_func(qr, s - 1 - i, 8, bits >> i & 1);
	for (int i = 8; i < 15; i++)
		set_func(qr, 8, s - 15 + i, bits >> i & 1);
	set_func(qr, 8, s - 8, true);
}

static void draw_version(struct qr_code *qr)
{
	uint32_t bits;

	if (qr->version < 7)
		return;
	bits = qr_version_bits(qr->version);
	for (int i = 0; i < 18; i++) {
		int a = qr->size - 11 + i % 3, b = i / 3;

		set_func(qr, a, b, bits >> i & 1);
		set_func(qr, b, a, bits >> i & 1);
	}
}

static void draw_function_patterns(struct qr_code *qr, enum qr_ecc ecc)
{
	const uint8_t *al = align_table[qr->version];
	int s = qr->size, na = 0;

	for (int i = 0; i < s * s; i++)
		qr->dark[i] = qr->func[i] = 0;
	for (int i = 0; i < s; i++) {
		set_func(qr, 6, i, i % 2 == 0);
		set_func(qr, i, 6, i % 2 == 0);
	}
	finder(qr, 3, 3);
	finder(qr, s - 4, 3);
	finder(qr, 3, s - 4);
	while (na < 5 && al[na])
		na++;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < na; j++)
			/* not over the three finders */
			if (!((i == 0 && j == 0) || (i == 0 && j == na - 1) ||
			      (i == na - 1 && j == 0)))
				alignment(qr, al[i], al[j]);
	draw_format(qr, ecc, 0); /* reserves the areas; redrawn with the mask */
	draw_version(qr);
}

/* ---- data placement and masks ---- */

static void place_data(struct qr_code *qr, int ncodewords)
{
	int s = qr->size, bit = 0;

	for (int right = s - 1; right >= 1; right -= 2) {
		if (right == 6)
			right = 5; /* the vertical timing pattern's column is skipped */
		for (int v = 0; v < s; v++)
			for (int j = 0; j < 2; j++) {
				int x = right - j, up = ((right + 1) & 2) == 0;
				int y = up ? s - 1 - v : v;

				if (qr->func[y * s + x])
					continue;
				if (bit < ncodewords * 8)
					qr->dark[y * s + x] =
						qr->out[bit >> 3] >> (7 - (bit & 7)) & 1;
				bit++; /* the remainder bits stay light */
			}
	}
}

static bool mask_bit(int mask, int x, int y)
{
	switch (mask) {
	case 0:
		return (x + y) % 2 == 0;
	case 1:
		return y % 2 == 0;
	case 2:
		return x % 3 == 0;
	case 3:
		return (x + y) % 3 == 0;
	case 4:
		return (x / 3 + y / 2) % 2 == 0;
	case 5:
		return x * y % 2 + x * y % 3 == 0;
	case 6:
		return (x * y % 2 + x * y % 3) % 2 == 0;
	default:
		return ((x + y) % 2 + x * y % 3) % 2 == 0;
	}
}

/* XORs the mask over the data modules; applying it twice undoes it. */
static void apply_mask(struct qr_code *qr, int mask)
{
	for (int y = 0; y < qr->size; y++)
		for (int x = 0; x < qr->size; x++)
			if (!qr->func[y * qr->size + x] && mask_bit(mask, x, y))
				qr->dark[y * qr->size + x] ^= 1;
}

/* Rule 1 (runs of five and more) and rule 3 (1:1:3:1:1 finder look-alikes) on one line. */
static long line_penalty(const struct qr_code *qr, int fixed, bool row)
{
	long p = 0;
	int s = qr->size, run = 0;
	uint32_t hist = 0; /* the last modules seen, newest in bit 0; outside is light */

	for (int i = 0; i < s; i++) {
		bool d = row ? qr_module(qr, i, fixed) : qr_module(qr, fixed, i);
		bool prev = i && (row ? qr_module(qr, i - 1, fixed) : qr_module(qr, fixed, i - 1));

		run = i && d == prev ? run + 1 : 1;
		if (run == 5)
			p += 3;
		else if (run > 5)
			p++;
		hist = (hist << 1 | d) & 0x7ff;
		/* 0000 1011101 or 1011101 0000 in the last 11 (light before the edge) */
		if (hist == 0x05d || hist == 0x5d0)
			p += 40;
	}
	return p;
}

static long penalty(const struct qr_code *qr)
{
	long p = 0, darks = 0, total = (long)qr->size * qr->size, k;
	int s = qr->size;

	for (int i = 0; i < s; i++)
		p += line_penalty(qr, i, true) + line_penalty(qr, i, false);
	for (int y = 0; y < s; y++)
		for (int x = 0; x < s; x++) {
			bool d = qr_module(qr, x, y);

			darks += d;
			if (x + 1 < s && y + 1 < s && d == qr_module(qr, x + 1, y) &&
			    d == qr_module(qr, x, y + 1) && d == qr_module(qr, x + 1, y + 1))
				p += 3;
		}
	/* Rule 4: ten points per five percent away from half dark. */
	k = (darks * 20 - total * 10);
	k = (k < 0 ? -k : k) / total;
	return p + k * 10;
}

static void choose_mask(struct qr_code *qr, enum qr_ecc ecc)
{
	long best = -1;

	for (int m = 0; m < 8; m++) {
		long p;

		apply_mask(qr, m);
		draw_format(qr, ecc, m);
		p = penalty(qr);
		if (best < 0 || p < best) {
			best = p;
			qr->mask = m;
		}
		apply_mask(qr, m);
	}
	apply_mask(qr, qr->mask);
	draw_format(qr, ecc, qr->mask);
}

/* ---- the entry point ---- */

bool qr_encode(const char *text, size_t len, enum qr_ecc ecc, int max_version, struct qr_code *qr)
{
	bool alnum;
	int v;

	if (!qr || (!text && len) || max_version < 1 || max_version > QR_MAX_VERSION ||
	    (ecc != QR_ECC_L && ecc != QR_ECC_M) || len > 4096)
		return false;
	alnum = qr_is_alnum(text, len);
	for (v = 1; v <= max_version; v++)
		if (stream_bits(alnum, len, v) <= (long)data_codewords(v, ecc) * 8 &&
		    len < (1u << count_bits(alnum, v)))
			break;
	if (v > max_version)
		return false;
	qr->version = v;
	qr->size = 17 + 4 * v;
	build_stream(qr, text, len, alnum, data_codewords(v, ecc));
	add_ecc(qr, ecc);
	draw_function_patterns(qr, ecc);
	place_data(qr, qr_total_codewords(v));
	choose_mask(qr, ecc);
	return true;
}
