#ifndef C_SECCOMP_TEST_SUPPORT_H
#define C_SECCOMP_TEST_SUPPORT_H

/* Makes epoll_pwait2 fail with EPERM in the calling thread and the threads it starts, as a
   seccomp filter written before Linux 5.11 does. Returns 0, or -1 with errno set. */
int test_refuse_epoll_pwait2(void);

/* Makes getsockopt(SO_PEERGROUPS) fail with ENOPROTOOPT in the calling thread and the threads
   it starts, as on Linux before 4.13. Returns 0, or -1 with errno set. */
int test_refuse_peer_groups(void);

#endif
