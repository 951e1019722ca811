#define _GNU_SOURCE
#include "CLinux.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int clinux_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token) {
  struct epoll_event event = {.events = events, .data.u64 = token};
  return epoll_ctl(epfd, op, fd, &event);
}

static void unpack(const struct epoll_event *ready, int count, uint32_t *events, uint64_t *tokens) {
  for (int i = 0; i < count; i++) {
    events[i] = ready[i].events;
    tokens[i] = ready[i].data.u64;
  }
}

int clinux_epoll_pwait2(int epfd, uint32_t *events, uint64_t *tokens, int max, int64_t timeout_ns) {
  struct epoll_event ready[64];
  struct timespec timeout = {.tv_sec = (time_t)(timeout_ns / 1000000000), .tv_nsec = (long)(timeout_ns % 1000000000)};
  int n = epoll_pwait2(epfd, ready, max > 64 ? 64 : max, timeout_ns < 0 ? NULL : &timeout, NULL);
  unpack(ready, n, events, tokens);
  return n;
}

int clinux_epoll_wait(int epfd, uint32_t *events, uint64_t *tokens, int max, int timeout_ms) {
  struct epoll_event ready[64];
  int n = epoll_wait(epfd, ready, max > 64 ? 64 : max, timeout_ms);
  unpack(ready, n, events, tokens);
  return n;
}

int clinux_accept(int fd) {
  return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

int clinux_peer_credentials(int fd, int32_t *pid, uint32_t *uid, uint32_t *gid) {
  struct ucred credentials;
  socklen_t length = sizeof credentials;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
  *pid = credentials.pid;
  *uid = credentials.uid;
  *gid = credentials.gid;
  return 0;
}

int clinux_pidfd_open(pid_t pid) {
  return (int)syscall(SYS_pidfd_open, pid, 0);
}

int clinux_thread_name(pthread_t thread, const char *name) {
  return pthread_setname_np(thread, name);
}

int clinux_thread_join(pthread_t thread, int64_t nanoseconds) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += nanoseconds / 1000000000;
  deadline.tv_nsec += nanoseconds % 1000000000;
  if (deadline.tv_nsec >= 1000000000) {
    deadline.tv_sec += 1;
    deadline.tv_nsec -= 1000000000;
  }
  return pthread_timedjoin_np(thread, NULL, &deadline);
}

long clinux_file_system_type(int fd) {
  struct statfs info;
  if (syscall(SYS_fstatfs, fd, &info) != 0) return -1;
  return (long)info.f_type;
}

int clinux_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
  return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int clinux_open_path_flag(void) { return O_PATH; }

int clinux_unshare_file_system_attributes(void) { return unshare(CLONE_FS); }

int clinux_redirect_stdio_stderr(clinux_stderr_writer writer) {
  cookie_io_functions_t functions = {.write = writer};
  FILE *stream = fopencookie(NULL, "w", functions);
  if (stream == NULL) return -1;
  /* Whole lines: libxml2 prints one message in several pieces. */
  if (setvbuf(stream, NULL, _IOLBF, BUFSIZ) != 0) {
    fclose(stream);
    return -1;
  }
  stderr = stream;
  return 0;
}
