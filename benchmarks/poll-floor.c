/* The least a polling daemon can do, for scale in benchmarks/compare-iio-sensor-proxy.sh:
 * every INTERVAL_MS it wakes from epoll_wait (a timeout on the monotonic clock, as orientd's
 * loop waits) and preads each of the files it opened once. No parsing, no classifier, no
 * clients, one thread.
 *
 * With --fstat it also fstats each file before reading it, as orientd does where the files
 * are not on sysfs (a umockdev testbed renames new files over old ones; on sysfs orientd
 * only preads). With --touch PAGES it also reads one byte of each of PAGES pages of its own
 * memory every poll, 64 kB apart: what touching that many pages after a long sleep costs,
 * for comparison with the pages orientd touches in a poll (benchmarks/poll-cost.sh).
 *
 *   cc -O2 -o poll-floor benchmarks/poll-floor.c
 *   poll-floor [--fstat] [--touch PAGES] INTERVAL_MS FILE...
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
  long pages = 0;
  if (argc > 2 && strcmp(argv[1], "--touch") == 0) {
    pages = atol(argv[2]);
    argv += 2;
    argc -= 2;
  }
  if (argc < 3 || pages < 0 || pages > 1024) {
    fprintf(stderr, "usage: poll-floor [--fstat] [--touch PAGES (0-1024)] INTERVAL_MS FILE...\n");
    return 64;
  }
  /* Each touched page 64 kB from the next, so that no two share a fault-around or a
   * prefetch; written once so that every page is really there. */
  volatile char *memory = pages ? malloc(pages * 65536) : NULL;
  if (pages && !memory) return 71;
  for (long page = 0; page < pages; page++) memory[page * 65536] = 1;
  long sum = 0;
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
    for (long page = 0; page < pages; page++) sum += memory[page * 65536];
    struct stat status;
    for (int i = 0; i < count; i++) {
      if (check && fstat(files[i], &status) < 0) return 74;
      if (pread(files[i], buffer, sizeof buffer, 0) < 0) return 74;
    }
  }
}
