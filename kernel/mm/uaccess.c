/* User memory access: see uaccess.h. */
#include "kernel/mm/mm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/lib/errno.h"

uint64_t __copy_user(void *dst, const void *src, uint64_t n);
int __get_user_u8(uint8_t *dst, const uint8_t *src);

bool access_ok(uint64_t addr, uint64_t size)
{
	return addr < TASK_SIZE && size <= TASK_SIZE - addr;
}

int copy_from_user(void *dst, uint64_t src, size_t n)
{
	if (!access_ok(src, n))
		return -EFAULT;
	return __copy_user(dst, (const void *)src, n) ? -EFAULT : 0;
}

int copy_to_user(uint64_t dst, const void *src, size_t n)
{
	if (!access_ok(dst, n))
		return -EFAULT;
	return __copy_user((void *)dst, src, n) ? -EFAULT : 0;
}

long strncpy_from_user(char *dst, uint64_t src, size_t max)
{
	for (size_t i = 0; i < max; i++) {
		if (!access_ok(src + i, 1) ||
		    __get_user_u8((uint8_t *)dst + i, (const uint8_t *)(src + i)))
			return -EFAULT;
		if (!dst[i])
			return (long)i;
	}
	return -ENAMETOOLONG;
}
