/// Reads the two PSI tables a player needs (ISO/IEC 13818-1 §2.4.4): the PAT, which names each
/// program's PMT PID, and the PMT, which lists the program's elementary streams. A section whose
/// CRC fails is refused, so bytes that merely look like a table are never believed.
enum TSProgramTables {
    static let patPID = 0
    private static let patTableID: UInt8 = 0x00
    private static let pmtTableID: UInt8 = 0x02

    /// The PMT PIDs a PAT section lists, in order; program 0 (the network PID) is left out.
    static func programMapPIDs(_ section: [UInt8]) -> [Int]? {
        guard var reader = body(section, tableID: patTableID) else { return nil }
        var pids: [Int] = []
        while let program = reader.bigEndian(2), let pid = reader.bigEndian(2) {
            if program != 0 { pids.append(Int(pid & 0x1FFF)) }
        }
        return pids
    }

    /// The elementary streams a PMT section declares, in order.
    static func streams(_ section: [UInt8]) -> [TSStream]? {
        guard var reader = body(section, tableID: pmtTableID),
              reader.skip(2),  // PCR_PID
              let programInfo = reader.bigEndian(2), reader.skip(Int(programInfo & 0x0FFF)) else { return nil }
        var streams: [TSStream] = []
        while let streamType = reader.u8(), let pid = reader.bigEndian(2), let infoLength = reader.bigEndian(2),
              let descriptors = reader.take(Int(infoLength & 0x0FFF)) {
            streams.append(TSStream(pid: Int(pid & 0x1FFF), streamType: streamType,
                                    kind: TSStreamKind(streamType: streamType, descriptors: descriptors)))
        }
        return streams
    }

    /// A long-form section's table data (after its 8-byte header, before its CRC), if the table
    /// is the one wanted, applies now (current_next_indicator) and its CRC holds.
    private static func body(_ section: [UInt8], tableID: UInt8) -> ByteReader? {
        guard section.count >= 12, section[0] == tableID, section[1] & 0x80 != 0, section[5] & 0x01 != 0,
              OggCRC.checksum(section[...], start: 0xFFFF_FFFF) == 0 else { return nil }
        return ByteReader(section[8..<(section.count - 4)])
    }
}
