/*
 * zlib stream with one fixed-Huffman deflate block (RFC 1950, RFC 1951 3.2.6).
 *
 * Sections: the checksums, the bit writer (deflate packs bits from the
 * least significant end; Huffman codes go most significant bit first, so
 * they are reversed), the length and distance code tables, the greedy LZ77
 * matcher.  Every write checks the room left, so a short buffer gives 0,
 * never an overrun.
 */
#include "common/deflate.h"

/* ---- checksums ---- */

uint32_t deflate_adler32(const uint8_t *p, size_t n)
{
	uint32_t a = 1, b = 0;

	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

uint32_t deflate_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

/* ---- the bit writer ---- */

struct bitout {
	uint8_t *out;
	size_t cap, len;
	uint32_t acc;
	int nacc;
	int overflow;
};

static void put_byte(struct bitout *b, uint8_t v)
{
	if (b->len < b->cap)
		b->out[b->len++] = v;
	else
		b->overflow = 1;
}

/* n <= 24 bits, least significant first. */
static void put_lsb(struct bitout *b, uint32_t v, int n)
{
	b->acc |= (v & ((1u << n) - 1)) << b->nacc;
	b->nacc += n;
	while (b->nacc >= 8) {
		put_byte(b, (uint8_t)b->acc);
		b->acc >>= 8;
		b->nacc -= 8;
	}
}

/* A Huffman code of n bits, most significant bit first. */
static void put_code(struct bitout *b, uint32_t code, int n)
{
	uint32_t r = 0;

	for (int i = 0; i < n; i++)
		r |= (code >> i & 1) << (n - 1 - i);
	put_lsb(b, r, n);
}

/* The fixed literal/length code (RFC 1951 3.2.6). */
static void put_litlen(struct bitout *b, unsigned sym)
{
	if (sym < 144)
		put_code(b, 0x30 + sym, 8);
	else if (sym < 256)
		put_code(b, 0x190 + sym - 144, 9);
	else if (sym < 280)
		put_code(b, sym - 256, 7);
	else
		put_code(b, 0xc0 + sym - 280, 8);
}

/* ---- length and distance codes ---- */

static const uint16_t len_base[29] = {3,  4,  5,  6,   7,   8,	 9,   10,  11, 13,
				      15, 17, 19, 23,  27,  31,	 35,  43,  51, 59,
				      67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
				      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
	1,   2,	  3,   4,   5,	 7,    9,    13,   17,	 25,   33,   49,   65,	  97,	 129,
	193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};

static void put_match(struct bitout *b, unsigned len, unsigned dist)
{
	int l = 28, d = 29;

	while (len_base[l] > len)
		l--;
	put_litlen(b, 257 + (unsigned)l);
	put_lsb(b, len - len_base[l], len_extra[l]);
	while (dist_base[d] > dist)
		d--;
	put_code(b, (uint32_t)d, 5);
	put_lsb(b, dist - dist_base[d], d < 4 ? 0 : d / 2 - 1);
}

/* ---- LZ77 ---- */

#define MIN_MATCH 3
#define MAX_MATCH 258
#define MAX_CHAIN 64 /* candidates tried per position: enough for repeated keys */

static uint32_t hash3(const uint8_t *p)
{
	return ((uint32_t)p[0] << 10 ^ (uint32_t)p[1] << 5 ^ p[2]) &
	       ((1u << DEFLATE_HASH_BITS) - 1);
}

static void insert(struct deflate_work *w, const uint8_t *in, size_t n, size_t pos)
{
	uint32_t h;

	if (pos + MIN_MATCH > n)
		return;
	h = hash3(in + pos);
	w->prev[pos % DEFLATE_WINDOW] = w->head[h] && pos + 1 - w->head[h] < DEFLATE_WINDOW
						? (uint16_t)(pos + 1 - w->head[h])
						: 0;
	w->head[h] = (uint32_t)pos + 1;
}

/* The longest earlier match of in[pos..] within the window; its distance in *dist. */
static unsigned longest(const struct deflate_work *w, const uint8_t *in, size_t n, size_t pos,
			unsigned *dist)
{
	unsigned best = 0, max = n - pos < MAX_MATCH ? (unsigned)(n - pos) : MAX_MATCH;
	size_t cand;
	uint32_t h;

	if (max < MIN_MATCH)
		return 0;
	h = hash3(in + pos);
	if (!w->head[h] || w->head[h] - 1 >= pos)
		return 0;
	cand = w->head[h] - 1;
	for (int chain = 0; chain < MAX_CHAIN && pos - cand < DEFLATE_WINDOW; chain++) {
		unsigned l = 0;
		uint16_t step;

		while (l < max && in[cand + l] == in[pos + l])
			l++;
		if (l > best) {
			best = l;
			*dist = (unsigned)(pos - cand);
		}
		step = w->prev[cand % DEFLATE_WINDOW];
		if (!step || step > cand)
			break;
		cand -= step;
	}
	return best >= MIN_MATCH ? best : 0;
}

/* CMF, FLG and with a dictionary its Adler-32 (RFC 1950 2.2). */
static void put_header(struct bitout *b, const uint8_t *dict, size_t dict_len)
{
	uint32_t id = deflate_adler32(dict, dict_len);

	put_byte(b, 0x78); /* deflate, 32 KiB window */
	/* FLEVEL 0, FDICT as asked; (0x78 << 8 | FLG) % 31 == 0 either way */
	put_byte(b, dict_len ? 0x20 : 0x01);
	for (int s = 24; dict_len && s >= 0; s -= 8)
		put_byte(b, (uint8_t)(id >> s));
}

size_t zlib_compress(const uint8_t *in, size_t dict_len, size_t n, uint8_t *out, size_t cap,
		     struct deflate_work *w)
{
	struct bitout b = {out, cap, 0, 0, 0, 0};
	uint32_t ad;
	size_t pos = dict_len;

	if (!out || !w || (!in && n) || dict_len > n || dict_len >= DEFLATE_WINDOW)
		return 0;
	ad = deflate_adler32(in + dict_len, n - dict_len);
	for (size_t i = 0; i < (1u << DEFLATE_HASH_BITS); i++)
		w->head[i] = 0;
	for (size_t i = 0; i < dict_len; i++)
		insert(w, in, n, i); /* matches may reach back into the dictionary */
	put_header(&b, in, dict_len);
	put_lsb(&b, 1, 1); /* BFINAL */
	put_lsb(&b, 1, 2); /* BTYPE 01: fixed Huffman */
	while (pos < n && !b.overflow) {
		unsigned dist = 0, len = longest(w, in, n, pos, &dist);

		if (len) {
			put_match(&b, len, dist);
			for (unsigned k = 0; k < len; k++)
				insert(w, in, n, pos + k);
			pos += len;
		} else {
			put_litlen(&b, in[pos]);
			insert(w, in, n, pos);
			pos++;
		}
	}
	put_litlen(&b, 256); /* end of block */
	if (b.nacc)
		put_lsb(&b, 0, 8 - b.nacc);
	for (int s = 24; s >= 0; s -= 8)
		put_byte(&b, (uint8_t)(ad >> s));
	return b.overflow ? 0 : b.len;
}
