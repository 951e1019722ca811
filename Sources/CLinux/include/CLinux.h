#ifndef ORIENTD_CLINUX_H
#define ORIENTD_CLINUX_H

/* What Swift's Glibc module does not give orientd's system layer: Linux headers it leaves
   out (epoll, eventfd, signalfd, statfs, malloc_trim), and thin wrappers where a declaration needs
   _GNU_SOURCE, a variadic syscall(2), or epoll_event's packed layout. No policy here. */

#include <stdint.h>
#include <stdio.h>
#include <linux/magic.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/types.h>

/* epoll_ctl(2) with a 64-bit token as the event's user data. */
int clinux_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token);

/* epoll_pwait2(2) with a timeout in nanoseconds (negative: none); the ready events land in
   parallel arrays of flags and tokens. At most 64 events. */
int clinux_epoll_pwait2(int epfd, uint32_t *events, uint64_t *tokens, int max, int64_t timeout_ns);

/* epoll_wait(2) with a timeout in milliseconds (negative: none), results as above. */
int clinux_epoll_wait(int epfd, uint32_t *events, uint64_t *tokens, int max, int timeout_ms);

/* accept4(2) with SOCK_NONBLOCK and SOCK_CLOEXEC. */
int clinux_accept(int fd);

/* The pid, uid and gid of a connected Unix socket's peer (SO_PEERCRED); 0 or -1 with errno. */
int clinux_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/* pidfd_open(2), close-on-exec by the kernel: readable once the process has exited. */
int clinux_pidfd_open(pid_t pid);

/* pthread_setname_np(3): names a thread (at most 15 bytes) for ps and debuggers. */
int clinux_thread_name(pthread_t thread, const char *name);

/* pthread_timedjoin_np(3) with a deadline `nanoseconds` from now; 0 when joined, else an errno. */
int clinux_thread_join(pthread_t thread, int64_t nanoseconds);

/* The type of the file system `fd` lives on (statfs's f_type), asked of the kernel itself:
   preloaded libraries such as umockdev's answer fstatfs(2) with sysfs for files that are not. */
long clinux_file_system_type(int fd);

/* Receives what a C library writes to stdio's stderr: `count` bytes; returns `count`. */
typedef ssize_t (*clinux_stderr_writer)(void *unused, const char *bytes, size_t count);

/* Replaces stdio's `stderr` with a line-buffered fopencookie(3) stream whose output goes to
   `writer`, in the thread that writes. Descriptor 2 is left alone. 0, or -1 with errno. */
int clinux_redirect_stdio_stderr(clinux_stderr_writer writer);

/* posix_spawn_file_actions_addclosefrom_np(3): the child closes every descriptor from `lowest`. */
int clinux_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/* open(2)'s O_PATH flag, which <fcntl.h> names only under _GNU_SOURCE. */
int clinux_open_path_flag(void);

/* unshare(CLONE_FS) (<sched.h> names both only under _GNU_SOURCE): the calling thread gets its
   own root, working directory and umask. 0, or -1 with errno. */
int clinux_unshare_file_system_attributes(void);

#endif
