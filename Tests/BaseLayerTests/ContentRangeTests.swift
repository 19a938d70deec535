import Parsers
import Testing

@Suite struct ContentRangeTests {
    @Test("valid forms")
    func valid() {
        #expect(ContentRange("bytes 0-499/1234") == ContentRange(range: 0..<500, completeLength: 1234))
        #expect(ContentRange("bytes 500-999/*") == ContentRange(range: 500..<1000, completeLength: nil))
        #expect(ContentRange("bytes */1234") == ContentRange(range: nil, completeLength: 1234))
        #expect(ContentRange(" bytes 7-7/8 ") == ContentRange(range: 7..<8, completeLength: 8))
    }

    @Test("lies and garbage are refused", arguments: [
        "bytes 500-499/1234", "bytes 0-1234/1234", "bytes 0-499", "bytes -1-5/10", "bytes 0--5/10",
        "bytes */*", "items 0-1/2", "bytes 0-1/+2", "bytes 0-99999999999999999999/1", "bytes 0-9223372036854775807/*",
        "", "bytes", "bytes 0-1/2/3", "bytes ０-1/2",
    ])
    func invalid(_ value: String) {
        #expect(ContentRange(value) == nil)
    }
}
