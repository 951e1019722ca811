#define _GNU_SOURCE
#include "CLinux.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/un.h>
#include <fcntl.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

int clinux_signalfd(const sigset_t *mask) {
  return signalfd(-1, mask, SFD_NONBLOCK | SFD_CLOEXEC);
}

int clinux_signalfd_read(int fd) {
  struct signalfd_siginfo info;
  ssize_t n = read(fd, &info, sizeof info);
  if (n != (ssize_t)sizeof info) return -1;
  return (int)info.ssi_signo;
}

int clinux_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token) {
  struct epoll_event event = {.events = events, .data.u64 = token};
  return epoll_ctl(epfd, op, fd, &event);
}

int clinux_accept(int fd) {
  return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/* Set once epoll_pwait2 has failed with ENOSYS (Linux < 5.11) or EPERM (a seccomp filter
   written before it); from then on every wait uses epoll_wait. */
static _Atomic int pwait2_missing = 0;

static int wait_ready(int epfd, struct epoll_event *ready, int max, int64_t timeout_ns) {
  if (timeout_ns >= 0 && !pwait2_missing) {
    struct timespec timeout = {.tv_sec = (time_t)(timeout_ns / 1000000000), .tv_nsec = (long)(timeout_ns % 1000000000)};
    int n = epoll_pwait2(epfd, ready, max, &timeout, NULL);
    if (n >= 0 || (errno != ENOSYS && errno != EPERM)) return n;
    pwait2_missing = 1;
  }
  // Whole milliseconds, rounded up so a timer never fires early.
  int timeout_ms = -1;
  if (timeout_ns >= 0) {
    int64_t milliseconds = (timeout_ns + 999999) / 1000000;
    timeout_ms = milliseconds > 0x7fffffff ? 0x7fffffff : (int)milliseconds;
  }
  return epoll_wait(epfd, ready, max, timeout_ms);
}

int clinux_epoll_wait(int epfd, uint32_t *events, uint64_t *tokens, int max, int64_t timeout_ns) {
  struct epoll_event ready[64];
  if (max > 64) max = 64;
  int n = wait_ready(epfd, ready, max, timeout_ns);
  for (int i = 0; i < n; i++) {
    events[i] = ready[i].events;
    tokens[i] = ready[i].data.u64;
  }
  return n;
}

uint64_t clinux_monotonic_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
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

int clinux_unix_socket(int nonblocking) {
  return socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
}

static int fill_address(struct sockaddr_un *address, const char *path) {
  size_t length = strlen(path);
  if (length == 0 || length >= sizeof address->sun_path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memset(address, 0, sizeof *address);
  address->sun_family = AF_UNIX;
  memcpy(address->sun_path, path, length + 1);
  return 0;
}

int clinux_unix_bind(int fd, const char *path) {
  struct sockaddr_un address;
  if (fill_address(&address, path) != 0) return -1;
  return bind(fd, (struct sockaddr *)&address, sizeof address);
}

int clinux_unix_connect(int fd, const char *path) {
  struct sockaddr_un address;
  if (fill_address(&address, path) != 0) return -1;
  return connect(fd, (struct sockaddr *)&address, sizeof address);
}

int clinux_unix_path_max(void) {
  struct sockaddr_un address;
  return (int)sizeof address.sun_path - 1;
}

int clinux_spawn_close_from(posix_spawn_file_actions_t *actions, int lowest) {
  return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
}

int clinux_eventfd(void) {
  return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
}

void clinux_eventfd_signal(int fd) {
  while (eventfd_write(fd, 1) < 0 && errno == EINTR) {
  }
}

void clinux_eventfd_drain(int fd) {
  eventfd_t count;
  while (eventfd_read(fd, &count) < 0 && errno == EINTR) {
  }
}

void clinux_thread_name(pthread_t thread, const char *name) {
  pthread_setname_np(thread, name);
}

int clinux_thread_join(pthread_t thread, int seconds) {
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += seconds;
  return pthread_timedjoin_np(thread, NULL, &deadline);
}

int clinux_pidfd_open(pid_t pid) {
  return (int)syscall(SYS_pidfd_open, pid, 0);
}

int clinux_spawn_hook(pid_t *pid, const char *path, char *const argv[], char *const envp[]) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attributes;
  sigset_t none, defaults;
  int result;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  posix_spawnattr_init(&attributes);
  sigemptyset(&none);
  sigfillset(&defaults);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  result = posix_spawn(pid, path, &actions, &attributes, argv, envp);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  return result;
}

int clinux_send_datagram(const char *path, const char *message) {
  struct sockaddr_un address;
  size_t length = strlen(path);
  int fd, result;
  if (length == 0 || length >= sizeof address.sun_path) {
    errno = EINVAL;
    return -1;
  }
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  memcpy(address.sun_path, path, length);
  if (path[0] == '@') address.sun_path[0] = 0;
  fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  result = (int)sendto(fd, message, strlen(message), MSG_NOSIGNAL, (struct sockaddr *)&address,
                       (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length));
  close(fd);
  return result < 0 ? -1 : 0;
}

int clinux_is_listening_unix_stream(int fd) {
  int value = 0;
  socklen_t length = sizeof value;
  struct sockaddr_un address;
  socklen_t address_length = sizeof address;
  if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) != 0 || !value) return 0;
  length = sizeof value;
  if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &length) != 0 || value != SOCK_STREAM) return 0;
  if (getsockname(fd, (struct sockaddr *)&address, &address_length) != 0) return 0;
  return address.sun_family == AF_UNIX;
}

int clinux_set_nonblocking_cloexec(int fd) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) return -1;
  return fcntl(fd, F_SETFD, FD_CLOEXEC);
}
