import Foundation
import Testing

/// Threads of the tests' own for test bodies that block.
///
/// The tests of this target start programs and wait for them with blocking calls (`waitUntil`'s
/// polling sleep, `waitpid`) from synchronous test functions. Swift Testing runs a test on
/// Swift's cooperative thread pool, which has one thread per core: on a two-core machine two
/// waiting tests would hold the whole pool, and every other test, waiting or not, would queue
/// behind them while the processor sits idle. The `.scratch` trait runs each test with this
/// executor as its task executor preference, so the test's synchronous body runs on a thread
/// from here and the cooperative pool stays free.
///
/// A thread is started whenever a job comes and no idle thread is left to take it, and stays
/// for the next job: there are about as many as the most test bodies that ran at once, which
/// `TestAdmission` bounds.
final class BlockingTestExecutor: TaskExecutor, @unchecked Sendable {
  static let shared = BlockingTestExecutor()

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []
  /// Threads waiting for a job, or woken for one and not yet back from the wait.
  private var idleThreads = 0
  private var threads: [pthread_t] = []

  private init() {}

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    // More jobs than threads about to take one: another thread. One too many now and then (a
    // thread that finishes a job takes the next as well) costs nothing but an idle thread.
    let startThread = jobs.count > idleThreads
    if !startThread { condition.signal() }
    condition.unlock()
    if startThread {
      let thread = Thread { [self] in serve() }
      // A test body runs on this thread's stack: as much as a main thread gets, whatever
      // Foundation's default for a thread is.
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  /// Runs jobs as they come, waiting idle in between; never returns.
  private func serve() -> Never {
    let executor = asUnownedTaskExecutor()
    condition.lock()
    threads.append(pthread_self())
    condition.unlock()
    while true {
      condition.lock()
      while jobs.isEmpty {
        idleThreads += 1
        condition.wait()
        idleThreads -= 1
      }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: executor)
    }
  }

  /// Whether the calling code runs on one of this executor's threads.
  var isCurrent: Bool {
    condition.lock()
    defer { condition.unlock() }
    return threads.contains { pthread_equal($0, pthread_self()) != 0 }
  }
}

/// How many tests of this target run at once.
///
/// Off the cooperative pool (see `BlockingTestExecutor`) nothing else would bound them: a test
/// waits for a slot here, without holding a thread, before its scratch directory is made. The
/// bound is for the machine, not for the tests: each test runs programs (orientd, umockdev-run,
/// dbus-daemon, iio-sensor-proxy) that need the processor now and then, and too many at once
/// would make each one slow enough to eat the time a test gives the behaviour it checks.
actor TestAdmission {
  static let shared = TestAdmission(width: TestAdmission.defaultWidth)

  /// Two tests per core. On two cores the suite's process tests kept about a fifth of a core
  /// busy each, on average (130 s of processor time in 630 s of tests), but some much more
  /// (an attack that floods orientd, a package build): with three per core and `yes` hogging a
  /// core, the flood got too little done in its time for its test to mean anything.
  static var defaultWidth: Int { 2 * ProcessInfo.processInfo.activeProcessorCount }

  private let width: Int
  /// How many tests hold a slot.
  private(set) var running = 0
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// How many tests wait for a slot.
  var waitingCount: Int { waiting.count }

  init(width: Int) { self.width = width }

  /// Waits for a slot. One `first` in line goes before the others waiting: a test of a
  /// serialized suite, whose next test cannot start before it ends, so that each wait in line
  /// would add to the length of the suite's chain, and so to the length of the run.
  func enter(first: Bool = false) async {
    if running < width {
      running += 1
      return
    }
    await withCheckedContinuation {
      if first { waiting.insert($0, at: 0) } else { waiting.append($0) }
    }
  }

  /// Gives the slot to the next test waiting, if any.
  func leave() {
    if waiting.isEmpty {
      running -= 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
