import Parsers

/// Stands for the library's actor: calls `TagReader` with a closure over its own state, which
/// must compile under Swift 6's strict checking.
actor ScanningActor {
    private var fetched = 0
    private let file: [UInt8]

    init(_ file: [UInt8]) { self.file = file }

    func scan() async throws -> (ScannedTags, Int) {
        let result = try await TagReader.read(length: Int64(file.count)) { range in
            fetched += range.count
            return Array(file[Int(range.lowerBound)..<Int(range.upperBound)])
        }
        return (result, fetched)
    }
}
