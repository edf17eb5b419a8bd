/*
 * mmap of open files: the vm_operations_struct the fs gives mm for a
 * ramfs regular file (opaque to mm: the struct file, referenced).
 */
#ifndef KERNEL_FS_FILEMAP_H
#define KERNEL_FS_FILEMAP_H

#include <stdbool.h>

#include "kernel/fs/file.h"
#include "kernel/mm/mm.h"

/* Operations on a struct file * (file_get/file_put, fill from the file's bytes). */
extern const struct vm_operations_struct file_vm_ops;

#define FILE_MMAP_ANON 1 /* /dev/zero: MAP_PRIVATE of it is anonymous memory, as Linux */

/*
 * May f be mapped (Linux 6.6 do_mmap's file checks, in its order)?  shared:
 * MAP_SHARED; write: PROT_WRITE.  0 (map it with file_vm_ops), FILE_MMAP_ANON,
 * -EACCES (not open for reading; PROT_WRITE with MAP_SHARED on a file not open
 * for writing), -ENODEV (no mmap: pipes, /proc, ttys, directories; and
 * MAP_SHARED of a ramfs file, which this kernel does not implement).
 */
int file_mmap_check(struct file *f, bool shared, bool write);

#endif
