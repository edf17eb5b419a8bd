/* QEMU fw_cfg through the legacy I/O ports: the signature, the file directory, a file. */
#include <stdint.h>

#include "kernel/arch/cpu.h"
#include "kernel/arch/fw_cfg.h"
#include "kernel/lib/string.h"

#define FW_CFG_SEL	 0x510
#define FW_CFG_DATA	 0x511
#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_FILE_DIR	 0x0019

static void fw_cfg_select(uint16_t key)
{
	__asm__ volatile("outw %0, %1" : : "a"(key), "Nd"((uint16_t)FW_CFG_SEL));
}

static void fw_cfg_read(void *buf, size_t n)
{
	uint8_t *b = buf;

	while (n--)
		*b++ = inb(FW_CFG_DATA);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

long fw_cfg_read_file(const char *name, void *buf, size_t cap)
{
	uint32_t r[4];
	uint8_t b[4], ent[64];
	uint32_t count;

	/* Only under a hypervisor: never poke ports 0x510/0x511 on a real PC. */
	cpuid_count(1, 0, r);
	if (!(r[2] & (1u << 31)))
		return -1;
	fw_cfg_select(FW_CFG_SIGNATURE);
	fw_cfg_read(b, 4);
	if (memcmp(b, "QEMU", 4))
		return -1;
	fw_cfg_select(FW_CFG_FILE_DIR);
	fw_cfg_read(b, 4);
	count = be32(b);
	for (uint32_t i = 0; i < count && i < 4096; i++) {
		uint32_t size;

		fw_cfg_read(ent, sizeof(ent)); /* be32 size, be16 select, u16, name[56] */
		ent[63] = 0;
		if (strcmp((const char *)ent + 8, name))
			continue;
		size = be32(ent);
		if (size > cap)
			size = (uint32_t)cap;
		fw_cfg_select((uint16_t)(ent[4] << 8 | ent[5]));
		fw_cfg_read(buf, size);
		return (long)size;
	}
	return -1;
}
