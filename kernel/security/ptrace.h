#ifndef KERNEL_SECURITY_PTRACE_H
#define KERNEL_SECURITY_PTRACE_H

#include <stdbool.h>

#include "kernel/task/task.h"
#include "kernel/security/ptrace_rules.h"

/* true when current may inspect `task` in `mode` (Linux returns 0 / -EPERM). */
bool ptrace_may_access(struct task_struct *task, unsigned mode);
bool capable(int cap);

extern int ptrace_scope; /* Yama, boot option ptrace_scope= */

#endif
