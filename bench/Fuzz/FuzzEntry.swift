import Foundation
import FuzzTargets

// Built two ways. With -DFUZZING and -sanitize=fuzzer,address (bench/fuzz), libFuzzer's driver
// feeds the target named by CLOUDPLAYERD_FUZZ_TARGET. Without, this is a corpus runner:
// `cloudplayerd-fuzz TARGET FILE…` runs the target over each file once.

#if FUZZING
import CFuzzerDriver

private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["CLOUDPLAYERD_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("set CLOUDPLAYERD_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: " "))\n".utf8))
        exit(2)
    }
    return target
}()

/// One input: what libFuzzer calls, by this name from its own main or through the driver below.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    target.runBlocking(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// SwiftPM gives the program a main of its own; whichever main the linker keeps, libFuzzer runs.
@main
enum FuzzDriver {
    static func main() {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOne(data, size) })
    }
}
#else
@main
enum CorpusRunner {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(Data("usage: cloudplayerd-fuzz TARGET FILE…  (targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: " ")))\n".utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            target.runBlocking(Array(data))
        }
    }
}
#endif
