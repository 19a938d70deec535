/// MD5 (RFC 1321), for the one thing that still asks for it: Subsonic's `t = md5(password + salt)`
/// token. Not for anything that needs a secure hash. Checked against RFC 1321's test suite.
package enum MD5 {
    /// The 16-byte digest of `message`.
    package static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476]
        var words = [UInt32](repeating: 0, count: 16)
        for block in MessageBlocks(message, bigEndianLength: false) {
            for index in 0..<16 { words[index] = block.littleEndianWord(index) }
            var (a, b, c, d) = (state[0], state[1], state[2], state[3])
            for index in 0..<64 {
                let mixed: UInt32, word: Int
                switch index / 16 {
                case 0: (mixed, word) = ((b & c) | (~b & d), index)
                case 1: (mixed, word) = ((d & b) | (~d & c), (5 * index + 1) % 16)
                case 2: (mixed, word) = (b ^ c ^ d, (3 * index + 5) % 16)
                default: (mixed, word) = (c ^ (b | ~d), (7 * index) % 16)
                }
                let sum = a &+ mixed &+ sines[index] &+ words[word]
                (a, d, c) = (d, c, b)
                b = b &+ sum.rotatedLeft(shifts[index / 16][index % 4])
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    /// Each round's four rotations (§3.4).
    private static let shifts: [[UInt32]] = [[7, 12, 17, 22], [5, 9, 14, 20], [4, 11, 16, 23], [6, 10, 15, 21]]

    /// `floor(2^32 × |sin(i + 1)|)` (§3.4's table T).
    private static let sines: [UInt32] = [
        0xd76a_a478, 0xe8c7_b756, 0x2420_70db, 0xc1bd_ceee, 0xf57c_0faf, 0x4787_c62a, 0xa830_4613, 0xfd46_9501,
        0x6980_98d8, 0x8b44_f7af, 0xffff_5bb1, 0x895c_d7be, 0x6b90_1122, 0xfd98_7193, 0xa679_438e, 0x49b4_0821,
        0xf61e_2562, 0xc040_b340, 0x265e_5a51, 0xe9b6_c7aa, 0xd62f_105d, 0x0244_1453, 0xd8a1_e681, 0xe7d3_fbc8,
        0x21e1_cde6, 0xc337_07d6, 0xf4d5_0d87, 0x455a_14ed, 0xa9e3_e905, 0xfcef_a3f8, 0x676f_02d9, 0x8d2a_4c8a,
        0xfffa_3942, 0x8771_f681, 0x6d9d_6122, 0xfde5_380c, 0xa4be_ea44, 0x4bde_cfa9, 0xf6bb_4b60, 0xbebf_bc70,
        0x289b_7ec6, 0xeaa1_27fa, 0xd4ef_3085, 0x0488_1d05, 0xd9d4_d039, 0xe6db_99e5, 0x1fa2_7cf8, 0xc4ac_5665,
        0xf429_2244, 0x432a_ff97, 0xab94_23a7, 0xfc93_a039, 0x655b_59c3, 0x8f0c_cc92, 0xffef_f47d, 0x8584_5dd1,
        0x6fa8_7e4f, 0xfe2c_e6e0, 0xa301_4314, 0x4e08_11a1, 0xf753_7e82, 0xbd3a_f235, 0x2ad7_d2bb, 0xeb86_d391,
    ]
}
