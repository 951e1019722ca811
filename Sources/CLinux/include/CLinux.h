#ifndef ORIENTD_CLINUX_H
#define ORIENTD_CLINUX_H

#include <stdint.h>
#include <malloc.h>
#include <signal.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/epoll.h>
#include <sys/socket.h>

/* Thin wrappers over Linux calls that Swift's Glibc module does not import,
   or imports awkwardly (epoll_event is a packed struct on x86_64). */

/* signalfd(2) for the given signals, non-blocking and close-on-exec. */
int clinux_signalfd(const sigset_t *mask);

/* Reads one signalfd_siginfo and returns its signal number, or -1. */
int clinux_signalfd_read(int fd);

/* epoll_ctl(2) with a 64-bit token as the event's user data. */
int clinux_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token);

/* epoll_wait(2) that splits events into parallel arrays of flags and tokens, with a timeout in
   nanoseconds (negative: none). */
int clinux_epoll_wait(int epfd, uint32_t *events, uint64_t *tokens, int max, int64_t timeout_ns);

/* accept4(2) with SOCK_NONBLOCK and SOCK_CLOEXEC. */
int clinux_accept(int fd);

/* Credentials of the peer of a connected Unix socket (SO_PEERCRED); 0 on success. */
int clinux_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid);

/* socket(AF_UNIX, SOCK_STREAM) with close-on-exec, and non-blocking if asked. */
int clinux_unix_socket(int nonblocking);

/* bind(2) a Unix socket to a path; -1 with errno ENAMETOOLONG if it does not fit sun_path. */
int clinux_unix_bind(int fd, const char *path);

/* connect(2) a Unix socket to a path. */
int clinux_unix_connect(int fd, const char *path);

/* The longest path sun_path can hold, without its NUL. */
int clinux_unix_path_max(void);


/* Makes posix_spawn close every descriptor from `lowest` up in the child. */
int clinux_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest);

/* eventfd(2), non-blocking and close-on-exec. */
int clinux_eventfd(void);

/* Adds one to an eventfd's counter, waking its reader. */
void clinux_eventfd_signal(int fd);

/* Resets an eventfd's counter. */
void clinux_eventfd_drain(int fd);

/* Names a thread (at most 15 bytes), for ps and debuggers. */
void clinux_thread_name(pthread_t thread, const char *name);

/* Joins a thread, giving up after `seconds`; 0 when it was joined. */
int clinux_thread_join(pthread_t thread, int seconds);

/* pidfd_open(2): a descriptor that becomes readable when the process exits. */
int clinux_pidfd_open(pid_t pid);

/* posix_spawn for hooks: `argv` with `envp`, stdin from /dev/null, descriptors from 3 up
   closed, no signals blocked or ignored, in a new process group. Returns 0 or an errno. */
int clinux_spawn_hook(pid_t *pid, const char *path, char *const argv[], char *const envp[]);

/* Sends one datagram to a Unix datagram socket path ('@' first means the abstract namespace).
   Returns 0 or -1 with errno. */
int clinux_send_datagram(const char *path, const char *message);

/* Whether fd is a listening Unix stream socket. */
int clinux_is_listening_unix_stream(int fd);

/* Makes fd non-blocking and close-on-exec. */
int clinux_set_nonblocking_cloexec(int fd);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t clinux_monotonic_ns(void);

#endif
