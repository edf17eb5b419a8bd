/* fbcon.c on the host: the kernel services it uses, stubbed. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/console/fbcon.h"

void (*console_screen_write)(const char *s, size_t n);
/* The harness's framebuffer is host memory: mapping it is the identity. */
void *ioremap_wc(uint64_t phys, uint64_t size)
{
	(void)size;
	return (void *)phys;
}
uint64_t tsc_hz(void)
{
	return 0;
}
bool serial_present(void)
{
	return true;
}
void kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
#ifdef BAD_FONT
const uint8_t fbcon_font_psf_start[] = {0x36, 0x04, 0x02, 0x40, 1, 2, 3};
const uint8_t fbcon_font_psf_end[1];
#endif

static struct boot_framebuffer fb;
static uint32_t *mem;

static void setup(uint32_t w, uint32_t h, uint32_t pitch, uint32_t format)
{
	free(mem);
	mem = calloc((size_t)pitch * h, 4);
	fb = (struct boot_framebuffer){.base = (uint64_t)mem,
				       .size = (uint64_t)pitch * h * 4,
				       .width = w,
				       .height = h,
				       .pitch = pitch,
				       .format = format};
	if (format == BOOT_FB_BITMASK) { /* 10 bits a channel, blue high */
		fb.blue_mask = 0x3ff00000;
		fb.green_mask = 0x000ffc00;
		fb.red_mask = 0x000003ff;
	}
}

static void dump(const char *path)
{
	FILE *f = fopen(path, "wb");
	fprintf(f, "%u %u %u\n", fb.width, fb.height, fb.pitch);
	fwrite(mem, 4, (size_t)fb.pitch * fb.height, f);
	fclose(f);
}

#define w(lit) fbcon_write(lit, sizeof(lit) - 1) /* literals may hold NUL */

/* The first pixel with colour != 0 in cell (col,row) at scale 1, 8x16 cells. */
static uint32_t ink_in_cell(unsigned col, unsigned row)
{
	for (unsigned y = row * 16; y < row * 16 + 16; y++)
		for (unsigned x = col * 8; x < col * 8 + 8; x++)
			if (mem[y * fb.pitch + x])
				return mem[y * fb.pitch + x];
	return 0;
}

int main(int argc, char **argv)
{
	const char *out = argv[1];
	char path[512];

	if (argc > 2) { /* refusals: no framebuffer, bad font */
		setup(640, 480, 640, BOOT_FB_RGBX);
		printf("bad-font %d hook %d\n", fbcon_init(&fb), console_screen_write != NULL);
		return 0;
	}
	setup(640, 480, 640, BOOT_FB_NONE);
	printf("format-none %d\n", fbcon_init(&fb));
	setup(640, 480, 640, BOOT_FB_RGBX);
	fb.base = 0;
	printf("base-0 %d\n", fbcon_init(&fb));
	setup(640, 480, 640, BOOT_FB_RGBX);
	fb.size = 4096;
	printf("too-small %d\n", fbcon_init(&fb));
	setup(640, 480, 600, BOOT_FB_RGBX);
	printf("pitch<width %d\n", fbcon_init(&fb));

	/* Terminal semantics, RGBX, pitch wider than the screen. */
	setup(640, 480, 700, BOOT_FB_RGBX);
	printf("init %d", fbcon_init(&fb));
	printf(" hook %d cols %u rows %u\n", console_screen_write == fbcon_write, fbcon_cols(),
	       fbcon_rows());
	fbcon_clear();
	w("tab\tstop|\n");
	w("abc\bX\n");
	w("12345\rab\n");
	w("\x1b[31mred\x1b[0m plain\x1b[2K\n");
	w("caf\xc3\xa9 \xe2\x94\x80 \xff!\n");
	w("x\x1b]0;title\x07y\x1b"
	  "7z\x1b[?25l\n");
	w("bell\a nul\0 del\x7f end\n");
	for (int i = 0; i < 80; i++)
		fbcon_write(&"0123456789"[i % 10], 1);
	w("wrapped\n");
	for (int i = 0; i < 80; i++)
		w("x"); /* exactly a row: the newline must not add an empty one */
	w("\nafter\n");
	fbcon_set_color(FBCON_GREEN, FBCON_BLACK);
	fbcon_puts_at(70, 0, "at70");
	fbcon_set_color(FBCON_LIGHT_GREY, FBCON_BLACK);
	w("\x1b[20;75Hcup\x1b[1;1H\x1b[20;79H"); /* last: moves the cursor */
	printf("red-pixel %06x\n", ink_in_cell(0, 3));
	printf("grey-pixel %06x\n", ink_in_cell(4, 3));
	snprintf(path, sizeof(path), "%s-terminal.raw", out);
	dump(path);

	/* Scrolling: 100 lines on 30 rows. */
	fbcon_clear();
	for (int i = 0; i < 100; i++) {
		char line[32];
		snprintf(line, sizeof(line), "line %d%s\n", i, i % 3 ? "" : " ...");
		fbcon_write(line, strlen(line));
	}
	snprintf(path, sizeof(path), "%s-scroll.raw", out);
	dump(path);

	/* BGRX and a 10-bit bitmask: where the red goes. */
	setup(640, 480, 640, BOOT_FB_BGRX);
	fbcon_init(&fb);
	w("\x1b[31mR\n");
	printf("bgr-red %06x\n", ink_in_cell(0, 0));
	setup(640, 480, 640, BOOT_FB_BITMASK);
	fbcon_init(&fb);
	w("\x1b[31mR\x1b[0mg\n");
	printf("mask-red %08x mask-grey %08x\n", ink_in_cell(0, 0), ink_in_cell(1, 0));
	snprintf(path, sizeof(path), "%s-bitmask.raw", out);
	dump(path);

	/* Large screens: 2x from 1600x800 up. */
	setup(1920, 1080, 1920, BOOT_FB_BGRX);
	fbcon_init(&fb);
	printf("1920x1080 cols %u rows %u\n", fbcon_cols(), fbcon_rows());
	w("big text\n");
	snprintf(path, sizeof(path), "%s-1920.raw", out);
	dump(path);
	setup(1280, 800, 1280, BOOT_FB_BGRX);
	fbcon_init(&fb);
	printf("1280x800 cols %u rows %u\n", fbcon_cols(), fbcon_rows());
	return 0;
}
