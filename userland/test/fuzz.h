/* The syscall fuzzer's shared state and its call generator (fuzz_gen.c). */
#ifndef USER_FUZZ_H
#define USER_FUZZ_H

#include "userland/lib/aslrbench_user.h"

#define MAX_RES	    16
#define CONSOLE_FDS 3
/*
 * The buffers calls may write into live in their own mapping, with a
 * PROT_NONE page after it (the straddle): a long write runs into EFAULT,
 * never into this program's own variables.
 */
#define SCRATCH_LEN (3 * 4096)

struct call {
	long nr;
	uint64_t a[6];
	const char *path; /* shown in the listing */
};

extern uint64_t state; /* the splitmix64 stream */
extern int depth;      /* 0 in the program's process, 1.. in its forks */
extern int unpriv;     /* started as uid 1000 */
extern uint64_t resv_fd[MAX_RES], resv_pid[MAX_RES], map_addr[MAX_RES], map_len[MAX_RES];
extern int nfd, npid, nmap;
extern int map_fd;	  /* a file of /tmp, unlinked, for file-backed mmap (-1: none) */
extern uint64_t straddle; /* the end of the scratch, where the PROT_NONE guard starts */
extern char *scratch;
/*
 * A MAP_SHARED page mapped before the first call: the program's forks share
 * it, so futex calls on its words meet across processes (0: none).
 */
extern uint64_t futex_page;

uint64_t rnd(void);
uint64_t below(uint64_t n);
void add_res(uint64_t *v, int *n, uint64_t x);
/* Draws one call: number and typed arguments, with the filters that keep the run going. */
void gen_call(struct call *c, uint64_t idx);
/* CLONE_VM | FS | FILES | SIGHAND | THREAD | SYSVSEM: the thread fuzz.c starts on its own stack. */
#define FUZZ_THREAD_FLAGS 0x50f00ULL
/* fuzz.c: where a forged rt_sigreturn frame may return to: exit(0) at once. */
void fuzz_landing(void);
int main(int argc, char **argv); /* own_memory: where our code is */

#endif
