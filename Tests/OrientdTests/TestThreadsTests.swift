import Foundation
import Testing

@Suite("Test bodies run on threads of the tests' own", .scratch)
struct TestThreadsTests {
  @Test("A synchronous test body runs on a thread of BlockingTestExecutor, not the cooperative pool")
  func synchronousBody() {
    // Were the body on the cooperative pool, a test waiting for a process would hold one of
    // its few threads (two on a two-core machine) and the suite would run that many at a time.
    #expect(BlockingTestExecutor.shared.isCurrent, "running on \(Thread.current)")
  }

  @Test("So does each case of a parameterized test", arguments: 0..<3)
  func parameterizedBody(_ number: Int) {
    #expect(BlockingTestExecutor.shared.isCurrent, "case \(number) running on \(Thread.current)")
  }

  @Test("No more tests run at once than TestAdmission lets in")
  func admissionBound() async {
    // A fresh gate of width 2: a third entrant waits until one leaves.
    let admission = TestAdmission(width: 2)
    await admission.enter()
    await admission.enter()
    let third = Task { await admission.enter() }
    // Until the third is queued (or, were the bound broken, has got in).
    let end = deadline(in: patience)
    while await admission.waitingCount == 0, await admission.running == 2, ContinuousClock.now < end {
      await Task.yield()
    }
    #expect(await admission.waitingCount == 1)
    #expect(await admission.running == 2)
    await admission.leave()
    await third.value
    #expect(await admission.running == 2)
    #expect(await admission.waitingCount == 0)
  }

  @Test("A test of a serialized suite goes before the others waiting")
  func serializedFirst() async {
    let admission = TestAdmission(width: 1)
    await admission.enter()
    let order = Order()
    let plain = Task {
      await admission.enter()
      await order.note("plain")
      await admission.leave()
    }
    let end = deadline(in: patience)
    while await admission.waitingCount < 1, ContinuousClock.now < end { await Task.yield() }
    let serialized = Task {
      await admission.enter(first: true)
      await order.note("serialized")
      await admission.leave()
    }
    while await admission.waitingCount < 2, ContinuousClock.now < end { await Task.yield() }
    await admission.leave()
    await plain.value
    await serialized.value
    #expect(await order.names == ["serialized", "plain"])
  }

  private actor Order {
    private(set) var names: [String] = []
    func note(_ name: String) { names.append(name) }
  }
}
