// The one function libFuzzer calls, for every target: ORIENTD_FUZZ_TARGET (set by
// scripts/fuzz) names the fuzzer, so that a single build (the core compiled with the
// sanitizers takes a minute or more) serves them all.
import Glibc

/// The fuzzer ORIENTD_FUZZ_TARGET names, decided once, at the first input.
private let chosenFuzzer: @Sendable (UnsafePointer<UInt8>, Int) -> Int32 = {
  let name = getenv("ORIENTD_FUZZ_TARGET").map { String(cString: $0) } ?? ""
  switch name {
  case "protocol": return fuzzProtocol
  case "config": return fuzzConfig
  case "mount-matrix": return fuzzMountMatrix
  case "trace": return fuzzTrace
  case "attribute": return fuzzAttributes
  case "scan-decoder": return fuzzScanDecoder
  default:
    fatalError(
      "ORIENTD_FUZZ_TARGET is '\(name)': one of protocol, config, mount-matrix, trace, attribute, scan-decoder"
    )
  }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 { chosenFuzzer(data, size) }
