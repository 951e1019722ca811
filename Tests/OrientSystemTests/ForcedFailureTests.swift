#if DEBUG
  import Glibc
  import Testing

  @testable import OrientSystem

  /// Failure paths of the syscall layer that the kernel seldom takes, reached by forcing an
  /// errno on this thread's next calls (`SystemCallFailuresForTesting`, debug builds only).
  @Suite("System calls that fail the way the kernel seldom makes them")
  struct ForcedFailureTests {
    /// A connected pair of Unix stream sockets.
    private struct SocketPair: ~Copyable {
      let one: FileDescriptor
      let other: FileDescriptor
    }

    private func socketPair() throws -> SocketPair {
      var fds: [Int32] = [-1, -1]
      let flags = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue)
      try #require(socketpair(AF_UNIX, flags, 0, &fds) == 0, "socketpair: errno \(errno)")
      return SocketPair(one: FileDescriptor(adopting: fds[0]), other: FileDescriptor(adopting: fds[1]))
    }

    /// What waits on `socket` now, as text.
    private func pending(on socket: borrowing FileDescriptor) -> String {
      var buffer = [UInt8](repeating: 0, count: 256)
      let count = buffer.withUnsafeMutableBytes {
        recv(socket.rawValue, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
      }
      return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }

    @Test("A write interrupted by a signal, twice, is made again and writes everything")
    func interruptedWrite() throws {
      let pair = try socketPair()
      let left = try SystemCallFailuresForTesting.forcing([.interrupted, .interrupted]) {
        () throws(SystemError) in try pair.one.writeAll("hello\n")
      }
      #expect(left == 0, "the interruptions were not reached")
      #expect(pending(on: pair.other) == "hello\n")
    }

    @Test("A send or receive that would block is nil, not an error")
    func wouldBlock() throws {
      let pair = try socketPair()
      var sent: Int?? = .none
      let sendLeft = try SystemCallFailuresForTesting.forcing([.wouldBlock]) { () throws(SystemError) in
        sent = try pair.one.send(Array("ping\n".utf8)[...])
      }
      #expect(sendLeft == 0)
      #expect(sent == .some(nil), "\(String(describing: sent))")
      var received: Int?? = .none
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 1)
      defer { buffer.deallocate() }
      let receiveLeft = try SystemCallFailuresForTesting.forcing([.wouldBlock]) { () throws(SystemError) in
        received = try pair.other.receive(into: buffer)
      }
      #expect(receiveLeft == 0)
      #expect(received == .some(nil), "\(String(describing: received))")
      // Forced, the send was never made.
      #expect(pending(on: pair.other) == "")
    }

    @Test("A write that fails with ENOSPC or EIO is reported as the write's error, with nothing written")
    func failedWrite() throws {
      for code in [Errno(rawValue: ENOSPC), .ioError] {
        let pair = try socketPair()
        let error = #expect(throws: SystemError.self) {
          _ = try SystemCallFailuresForTesting.forcing([code]) { () throws(SystemError) in
            try pair.one.writeAll("lock left-up\n")
          }
        }
        #expect(error?.operation == "write" && error?.code == code, "\(String(describing: error))")
        #expect(pending(on: pair.other) == "")
      }
    }

    @Test("A rename that fails with ENOSPC names both paths and leaves the files as they were")
    func failedRename() throws {
      var template = Array("/tmp/orientd-forced.XXXXXX".utf8CString)
      let directory = String(cString: try #require(mkdtemp(&template)))
      defer {
        unlink(directory + "/new")
        unlink(directory + "/state")
        rmdir(directory)
      }
      let source = directory + "/new"
      let destination = directory + "/state"
      let file = try #require(fopen(source, "w"))
      fclose(file)
      let error = #expect(throws: SystemError.self) {
        _ = try SystemCallFailuresForTesting.forcing([Errno(rawValue: ENOSPC)]) { () throws(SystemError) in
          try FileSystem.rename(source, to: destination)
        }
      }
      #expect(error?.operation == "rename \(source) to \(destination)", "\(String(describing: error))")
      #expect(error?.code == Errno(rawValue: ENOSPC))
      #expect(access(source, F_OK) == 0)
      #expect(access(destination, F_OK) != 0)
    }

    @Test("accept skips a connection aborted before it was accepted, and reports EMFILE")
    func acceptFailures() throws {
      // Every accept here is forced: the socket is never asked.
      let pair = try socketPair()
      let emfile = Errno(rawValue: EMFILE)
      for outcomes in [[.connectionAborted, emfile], [emfile]] as [[Errno?]] {
        let error = #expect(throws: SystemError.self, "\(outcomes)") {
          let left = try SystemCallFailuresForTesting.forcing(outcomes) { () throws(SystemError) in
            _ = try pair.one.accept()
          }
          Issue.record("accept returned, with \(left) forced failures left")
        }
        #expect(error?.operation == "accept" && error?.code == emfile, "\(String(describing: error))")
      }
    }

    @Test("Forced failures belong to the thread that asked for them, and end with it")
    func onlyThisThread() throws {
      let pair = try socketPair()
      // Left over when `forcing` returns, the failure no longer applies.
      let left = try SystemCallFailuresForTesting.forcing([nil, .ioError]) { () throws(SystemError) in
        try pair.one.writeAll("one\n")
      }
      #expect(left == 1)
      try pair.one.writeAll("two\n")
      #expect(pending(on: pair.other) == "one\ntwo\n")
    }
  }
#endif
