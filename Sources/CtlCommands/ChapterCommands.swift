import ArgumentParser
import Manager1

/// Chapters of the track playing (an audiobook's): listed, and jumped between.
enum ChapterCommands {
    struct Chapter: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "chapter",
            abstract: "Jumps to a chapter of the track playing: chapter next, chapter prev, chapter 3.")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "next, prev (this chapter's start, or within 3 s of it the one before), or a chapter number from 1.")
        var which: String
        func run() async throws {
            switch which {
            case "next": try await ControlCommands.send(options, "chapter-next")
            case "prev", "previous": try await ControlCommands.send(options, "chapter-previous")
            default:
                guard let number = Int(which), number >= 1 else {
                    throw ValidationError("'\(which)' is not next, prev or a chapter number (1, 2, …).")
                }
                try await ControlCommands.send(options, "chapter", Double(number))
            }
        }
    }

    struct Chapters: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "chapters", abstract: "Lists the chapters of the track playing.")
        @OptionGroup var options: GlobalOptions
        func run() async throws {
            let (status, raw) = try await Daemon.call(options, Manager1.status)
            if options.json { return say(raw.json) }
            guard let chapters = status.chapters, !chapters.isEmpty else { return say("no chapters") }
            for line in lines(chapters, current: status.chapter) { say(line) }
        }
    }

    /// One line a chapter, "▶" at the one heard: number, start, title.
    static func lines(_ chapters: [Manager1.Chapter], current: UInt32?) -> [String] {
        let width = String(chapters.count).count
        return chapters.enumerated().map { index, chapter in
            let number = String(index + 1)
            let mark = current.map { Int($0) == index } == true ? "▶" : " "
            return TextTable.printable("\(mark) \(String(repeating: " ", count: width - number.count))\(number)  "
                                       + "\(Formatting.duration(chapter.start))  \(chapter.title)")
        }
    }
}
