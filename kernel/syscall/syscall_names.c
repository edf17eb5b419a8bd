/*
 * System-call names, from the table (kernel/uapi/syscall_64.h), for the
 * "unknown syscall" warning: it names the Linux calls this kernel lacks that
 * a program is likely to try (the table's sys_ni_syscall rows).  A number
 * the table does not hold prints as "".
 */
#include "kernel/syscall/syscall.h"

static const char *const names[NR_syscalls] = {
#define __SYSCALL(nr, name, entry, fuzz, lock) [nr] = #name,
#include "kernel/uapi/syscall_64.h"
#undef __SYSCALL
};

const char *syscall_name(uint64_t nr)
{
	return nr < NR_syscalls && names[nr] ? names[nr] : "";
}
