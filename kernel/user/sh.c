/*
 * The serial shell (mode=shell): prompt "# " for root and "$ " otherwise,
 * line editing with backspace, and a few commands.  Input is raw bytes
 * from the console; the shell echoes them itself, so a script piped into
 * QEMU's serial port shows up in the log exactly like typed input.
 */
#include "kernel/user/lib/ulib.h"

#define LINE_MAX 256
#define MAX_ARGS 8

static void puts_n(const char *s)
{
	write(1, s, strlen(s));
}

/* Reads one line with echo and backspace; returns its length, -1 on EOF. */
static int read_line(char *buf, int cap)
{
	int n = 0;

	for (;;) {
		char c;

		if (read(0, &c, 1) != 1)
			return -1;
		if (c == '\r' || c == '\n') {
			puts_n("\n");
			buf[n] = '\0';
			return n;
		}
		if (c == 0x7f || c == '\b') {
			if (n > 0) {
				n--;
				puts_n("\b \b");
			}
			continue;
		}
		if (c == 0x15) { /* ^U: kill the line */
			while (n > 0) {
				n--;
				puts_n("\b \b");
			}
			continue;
		}
		if ((unsigned char)c < 0x20 || (unsigned char)c > 0x7e || n >= cap - 1)
			continue; /* ignore control bytes and overlong input */
		buf[n++] = c;
		write(1, &c, 1);
	}
}

static int split(char *line, char **argv)
{
	int argc = 0;

	while (*line && argc < MAX_ARGS) {
		while (*line == ' ')
			*line++ = '\0';
		if (!*line)
			break;
		argv[argc++] = line;
		while (*line && *line != ' ')
			line++;
	}
	return argc;
}

static const char *err_name(long e)
{
	switch (-e) {
	case ENOENT:
		return "No such file or directory";
	case EACCES:
		return "Permission denied";
	case EPERM:
		return "Operation not permitted";
	case EINVAL:
		return "Invalid argument";
	case EFAULT:
		return "Bad address";
	case ENAMETOOLONG:
		return "File name too long";
	case 21:
		return "Is a directory";
	default:
		return "error";
	}
}

static int cat(const char *path)
{
	char buf[512];
	long fd = open(path, 0), n;

	if (fd < 0) {
		printf("cat: %s: %s\n", path, err_name(fd));
		return 1;
	}
	while ((n = read((int)fd, buf, sizeof(buf))) > 0) {
		/* cmdline separates words with NULs: show them as spaces. */
		for (long i = 0; i < n; i++)
			if (buf[i] == '\0')
				buf[i] = ' ';
		write(1, buf, (size_t)n);
	}
	close((int)fd);
	return n < 0;
}

/* ps: PID, PPID, UID, state and command, from each /proc/<pid>/stat and status. */
static void ps(void)
{
	int pids[64];
	long n = syscall2(__NR_getdents_pids, pids, 64);

	printf("  PID  PPID   UID S COMMAND\n");
	for (long i = 0; i < n; i++) {
		char path[32], buf[512], comm[20] = "?", state = '?';
		long fd, len, ppid = 0, uid = -1;

		snprintf(path, sizeof(path), "/proc/%d/stat", pids[i]);
		fd = open(path, 0);
		if (fd < 0)
			continue;
		len = read((int)fd, buf, sizeof(buf) - 1);
		close((int)fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		char *l = buf, *r = buf + len;

		while (*l && *l != '(')
			l++;
		while (r > l && *r != ')')
			r--;
		if (*l == '(' && r > l) {
			int k = 0;

			for (char *p = l + 1; p < r && k < 19; p++)
				comm[k++] = *p;
			comm[k] = '\0';
			state = r[2];
			ppid = atol(r + 4);
		}
		snprintf(path, sizeof(path), "/proc/%d/status", pids[i]);
		fd = open(path, 0);
		if (fd >= 0) {
			len = read((int)fd, buf, sizeof(buf) - 1);
			close((int)fd);
			buf[len > 0 ? len : 0] = '\0';
			for (char *p = buf; *p; p++)
				if (!strncmp(p, "\nUid:\t", 6)) {
					uid = atol(p + 6);
					break;
				}
		}
		printf("%5d %5ld %5ld %c %s\n", pids[i], ppid, uid, state, comm);
	}
}

static void id(void)
{
	unsigned r, e, s, g, eg, sg;

	syscall3(__NR_getresuid, &r, &e, &s);
	syscall3(__NR_getresgid, &g, &eg, &sg);
	printf("uid=%u euid=%u suid=%u gid=%u egid=%u sgid=%u\n", r, e, s, g, eg, sg);
}

static int shell(void);

/* su UID: root only; a child shell with all ids set to UID; `exit` returns. */
static void su(const char *arg)
{
	long uid = arg ? atol(arg) : -1, pid;
	int status;

	if (!arg || uid < 0 || uid > 65535 || (uid == 0 && strcmp(arg, "0"))) {
		printf("su: usage: su UID (0-65535)\n");
		return;
	}
	if (syscall0(__NR_geteuid) != 0) {
		printf("su: Operation not permitted (only root may su)\n");
		return;
	}
	pid = fork();
	if (pid == 0) {
		if (syscall3(__NR_setresgid, uid, uid, uid) ||
		    syscall3(__NR_setresuid, uid, uid, uid)) {
			printf("su: cannot change ids\n");
			exit(1);
		}
		exit(shell());
	}
	if (pid < 0)
		printf("su: fork: %ld\n", pid);
	else
		wait4((int)pid, &status, 0, 0);
}

static void rng(const char *name)
{
	long fd;

	if (!name) {
		cat("/proc/sys/kernel/rng_variant");
		return;
	}
	fd = open("/proc/sys/kernel/rng_variant", 1);
	if (fd < 0) {
		printf("rng: %s\n", err_name(fd));
		return;
	}
	long rc = write((int)fd, name, strlen(name));

	if (rc < 0)
		printf("rng: %s: %s\n", name, err_name(rc));
	close((int)fd);
}

/* attack [STRATEGY] [VARIANT]: one lab cell, with and without the /proc fix (root). */
static void attack(int argc, char **argv)
{
	char cur[40] = "chacha20-batched";
	long fd = open("/proc/sys/kernel/rng_variant", 0), n, rc;

	if (fd >= 0) {
		n = read((int)fd, cur, sizeof(cur) - 1);
		cur[n > 0 ? n - 1 : 0] = '\0';
		close((int)fd);
	}
	rc = syscall3(__NR_aslrbench_lab, LAB_OP_RUN_CELL, argc > 1 ? argv[1] : "proc-leak",
		      argc > 2 ? argv[2] : cur);
	if (rc)
		printf("attack: %s (strategies: proc-leak pid-jiffies-collision state-replay "
		       "brute-force)\n",
		       err_name(rc));
}

/*
 * run PROG [ARGS]: a program as a child: a path in the file system (e.g. one
 * run-qemu.sh --add put there), or a built-in's name (ours or a Linux one,
 * e.g. busybox), resolved as execve resolves it.
 */
static void run(int argc, char **argv)
{
	char *args[MAX_ARGS + 1];
	int status = 0;
	long pid;

	if (argc < 2) {
		printf("run: usage: run PROGRAM [ARGS...]\n");
		return;
	}
	for (int i = 1; i < argc; i++)
		args[i - 1] = argv[i];
	args[argc - 1] = 0;
	pid = spawn(args[0], args);
	if (pid < 0) {
		printf("run: %s: %s\n", args[0],
		       pid == -ENOEXEC ? "Exec format error" : err_name(pid));
		return;
	}
	wait4((int)pid, &status, 0, 0);
	if (status & 0x7f)
		printf("run: %s killed by signal %d\n", args[0], status & 0x7f);
	else if (status >> 8)
		printf("run: %s exited %d\n", args[0], (status >> 8) & 0xff);
}

static void help(void)
{
	puts_n("commands:\n"
	       "  help              this list\n"
	       "  ps                processes (from /proc)\n"
	       "  cat FILE          print a file, e.g. /proc/1/stat, /proc/self/maps\n"
	       "  id                real, effective and saved ids\n"
	       "  su UID            (root) a shell as UID; exit returns\n"
	       "  rng [NAME]        show or (root) set the get_random_int() variant\n"
	       "  run PROG [ARGS]   run a program: a path (/bin/lx_exec, a #! script) or a\n"
	       "                    built-in: busybox, lx_musl, lx_glibc, ...\n"
	       "  exit              leave this shell\n"
	       "  attack [S] [RNG]  (root) 20 attack-lab trials of strategy S against RNG\n"
	       "  poweroff          (root) end the run\n"
	       "  aslr [N]          (root) ASLR entropy, N spawns per variant and profile\n"
	       "  bench             boot with mode=bench instead\n");
}

static int shell(void)
{
	char line[LINE_MAX], *argv[MAX_ARGS];

	for (;;) {
		int argc;

		puts_n(syscall0(__NR_geteuid) == 0 ? "# " : "$ ");
		if (read_line(line, sizeof(line)) < 0)
			return 0;
		argc = split(line, argv);
		if (argc == 0)
			continue;
		if (!strcmp(argv[0], "help"))
			help();
		else if (!strcmp(argv[0], "ps"))
			ps();
		else if (!strcmp(argv[0], "cat"))
			argc < 2 ? (void)printf("cat: usage: cat FILE\n") : (void)cat(argv[1]);
		else if (!strcmp(argv[0], "id"))
			id();
		else if (!strcmp(argv[0], "run"))
			run(argc, argv);
		else if (!strcmp(argv[0], "su"))
			su(argc > 1 ? argv[1] : 0);
		else if (!strcmp(argv[0], "rng"))
			rng(argc > 1 ? argv[1] : 0);
		else if (!strcmp(argv[0], "exit"))
			return 0;
		else if (!strcmp(argv[0], "poweroff")) {
			long rc = syscall6(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
					   LINUX_REBOOT_CMD_POWER_OFF, 0, 0, 0);

			printf("poweroff: %s\n", err_name(rc));
		} else if (!strcmp(argv[0], "attack")) {
			attack(argc, argv);
		} else if (!strcmp(argv[0], "aslr")) {
			long rc = syscall2(__NR_aslrbench_lab, LAB_OP_ASLR_SUITE,
					   argc > 1 ? atol(argv[1]) : 0);

			if (rc)
				printf("aslr: %s\n", err_name(rc));
		} else if (!strcmp(argv[0], "bench"))
			printf("bench: boot with mode=bench (the suites need the whole machine)\n");
		else
			printf("%s: unknown command (try help)\n", argv[0]);
	}
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	puts_n("aslrbench shell; type help\n");
	return shell();
}
