/* The least a polling daemon can do, for scale in benchmarks/compare-iio-sensor-proxy.sh:
 * every INTERVAL_MS it wakes from epoll_wait (a timeout on the monotonic clock, as orientd's
 * loop waits) and preads each of the files it opened once. No parsing, no classifier, no
 * clients, one thread.
 *
 * With --fstat it also fstats each file before reading it, as orientd does where the files
 * are not on sysfs (a umockdev testbed renames new files over old ones; on sysfs orientd
 * only preads).
 *
 *   cc -O2 -o poll-floor benchmarks/poll-floor.c
 *   poll-floor [--fstat] INTERVAL_MS FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <time.h>

int main(int argc, char **argv) {
  int check = argc > 1 && strcmp(argv[1], "--fstat") == 0;
  if (check) { argv++; argc--; }
  if (argc < 3) {
    fprintf(stderr, "usage: poll-floor [--fstat] INTERVAL_MS FILE...\n");
    return 64;
  }
  long interval = atol(argv[1]);
  int count = argc - 2;
  int files[16];
  if (count > 16) count = 16;
  for (int i = 0; i < count; i++) {
    files[i] = open(argv[i + 2], O_RDONLY | O_CLOEXEC);
    if (files[i] < 0) { perror(argv[i + 2]); return 66; }
  }
  int loop = epoll_create1(EPOLL_CLOEXEC);
  struct epoll_event event;
  char buffer[128];
  struct timespec now, due;
  clock_gettime(CLOCK_MONOTONIC, &due);
  for (;;) {
    due.tv_nsec += (interval % 1000) * 1000000;
    due.tv_sec += interval / 1000 + due.tv_nsec / 1000000000;
    due.tv_nsec %= 1000000000;
    for (;;) {
      clock_gettime(CLOCK_MONOTONIC, &now);
      long wait = (due.tv_sec - now.tv_sec) * 1000 + (due.tv_nsec - now.tv_nsec) / 1000000;
      if (wait <= 0) break;
      epoll_wait(loop, &event, 1, (int)wait);
    }
    struct stat status;
    for (int i = 0; i < count; i++) {
      if (check && fstat(files[i], &status) < 0) return 74;
      if (pread(files[i], buffer, sizeof buffer, 0) < 0) return 74;
    }
  }
}
