/*
 * Path-name buffers, PATH_MAX bytes each, taken for one call and given
 * back before it returns (Linux's __getname and __putname).
 */
#ifndef KERNEL_FS_NAMES_H
#define KERNEL_FS_NAMES_H

/* A PATH_MAX buffer, or NULL when memory is out (the caller's -ENOMEM). */
char *__getname(void);
/* Gives a buffer back; NULL is ignored. */
void __putname(char *name);

#endif
