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

/* The kernel's DRM mode interface as far as reading a connector's properties goes: Debian
   ships its header (drm_mode.h) only in libdrm-dev, and Swift can take neither its
   fixed-size name arrays nor the _IOWR request numbers from a header. The layouts are the
   kernel's stable user-space ABI (include/uapi/drm/drm_mode.h); the requests are
   DRM_IOWR('d', NR, struct) with the kernel's numbers. */
#include <linux/ioctl.h>

struct clinux_drm_card_res {
  uint64_t fb_id_ptr, crtc_id_ptr, connector_id_ptr, encoder_id_ptr;
  uint32_t count_fbs, count_crtcs, count_connectors, count_encoders;
  uint32_t min_width, max_width, min_height, max_height;
};

struct clinux_drm_mode_info {
  uint32_t clock;
  uint16_t hdisplay, hsync_start, hsync_end, htotal, hskew;
  uint16_t vdisplay, vsync_start, vsync_end, vtotal, vscan;
  uint32_t vrefresh, flags, type;
  char name[32];
};

struct clinux_drm_get_connector {
  uint64_t encoders_ptr, modes_ptr, props_ptr, prop_values_ptr;
  uint32_t count_modes, count_props, count_encoders;
  uint32_t encoder_id, connector_id, connector_type, connector_type_id;
  uint32_t connection, mm_width, mm_height, subpixel, pad;
};

struct clinux_drm_obj_get_properties {
  uint64_t props_ptr, prop_values_ptr;
  uint32_t count_props, obj_id, obj_type;
};

struct clinux_drm_property_enum {
  uint64_t value;
  char name[32];
};

struct clinux_drm_get_property {
  uint64_t values_ptr, enum_blob_ptr;
  uint32_t prop_id, flags;
  char name[32];
  uint32_t count_values, count_enum_blobs;
};

static const unsigned long clinux_drm_getresources = _IOWR('d', 0xA0, struct clinux_drm_card_res);
static const unsigned long clinux_drm_getconnector = _IOWR('d', 0xA7, struct clinux_drm_get_connector);
static const unsigned long clinux_drm_getproperty = _IOWR('d', 0xAA, struct clinux_drm_get_property);
static const unsigned long clinux_drm_obj_getproperties = _IOWR('d', 0xB9, struct clinux_drm_obj_get_properties);
static const uint32_t clinux_drm_object_connector = 0xc0c0c0c0;
static const uint32_t clinux_drm_mode_prop_enum = 1 << 3;

#endif
