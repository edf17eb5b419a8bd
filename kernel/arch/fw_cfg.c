/*
 * QEMU's fw_cfg, legacy I/O-port interface (docs/specs/fw_cfg.rst): select a
 * key on 0x510, read its bytes from 0x511; key 0x19 is the file directory
 * (be32 count, then entries of be32 size, be16 select, u16, char name[56]).
 * kernel/console/fbcon.c reads its screen-hold file the same way.
 */
#include <stdint.h>
#include "kernel/arch/cpu.h"
#include "kernel/arch/fw_cfg.h"
#include "kernel/lib/string.h"

#define FW_CFG_SEL	 0x510
#define FW_CFG_DATA	 0x511
#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_FILE_DIR	 0x0019
#define FW_CFG_MAX_FILES 4096 /* a sane bound on a directory read from the host */

static void select_key(uint16_t key)
{
	__asm__ volatile("outw %0, %1" : : "a"(key), "Nd"((uint16_t)FW_CFG_SEL));
}

static void read_bytes(void *buf, size_t n)
{
	uint8_t *b = buf;

	while (n--)
		*b++ = inb(FW_CFG_DATA);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int fw_cfg_read_file(const char *name, char *buf, size_t len)
{
	uint32_t r[4], count;
	uint8_t b[4], ent[64];

	if (!len)
		return -1;
	cpuid_count(1, 0, r);
	if (!(r[2] & (1u << 31))) /* no hypervisor: a real PC, hands off the ports */
		return -1;
	select_key(FW_CFG_SIGNATURE);
	read_bytes(b, 4);
	if (memcmp(b, "QEMU", 4))
		return -1;
	select_key(FW_CFG_FILE_DIR);
	read_bytes(b, 4);
	count = be32(b);
	for (uint32_t i = 0; i < count && i < FW_CFG_MAX_FILES; i++) {
		uint32_t size;

		read_bytes(ent, sizeof(ent));
		ent[63] = 0;
		if (strcmp((const char *)ent + 8, name))
			continue;
		size = be32(ent);
		if (size > len - 1)
			size = (uint32_t)(len - 1);
		select_key((uint16_t)(ent[4] << 8 | ent[5]));
		read_bytes(buf, size);
		buf[size] = '\0';
		return (int)size;
	}
	return -1;
}
