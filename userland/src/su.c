/*
 * su UID: root only, no password (the project's shell contract, unlike
 * busybox's su, which wants /etc/passwd and a password).  Sets the real,
 * effective and saved uid and gid to UID and runs a login shell (-sh, so
 * /etc/profile sets the `$ ` prompt); `exit` ends it and returns to the
 * shell that ran su.
 */
#include <stdlib.h>

#include "userland/lib/cmd.h"

int main(int argc, char **argv)
{
	char *end;
	long uid;

	if (argc != 2 || !argv[1][0]) {
		fprintf(stderr, "su: usage: su UID (0-65535)\n");
		return 2;
	}
	errno = 0;
	uid = strtol(argv[1], &end, 10);
	if (errno || *end || uid < 0 || uid > 65535) {
		fprintf(stderr, "su: usage: su UID (0-65535)\n");
		return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "su: Operation not permitted (only root may su)\n");
		return 1;
	}
	if (setresgid((gid_t)uid, (gid_t)uid, (gid_t)uid) ||
	    setresuid((uid_t)uid, (uid_t)uid, (uid_t)uid)) {
		fprintf(stderr, "su: cannot change ids: %s\n", strerror(errno));
		return 1;
	}
	execl("/bin/sh", "-sh", (char *)0);
	fprintf(stderr, "su: /bin/sh: %s\n", strerror(errno));
	return 127;
}
