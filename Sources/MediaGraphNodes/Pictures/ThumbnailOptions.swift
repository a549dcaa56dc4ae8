/// What `ThumbnailMaker` makes: how many pictures, where, how large, and an optional contact
/// sheet.
public struct ThumbnailOptions: Sendable {
    /// Pictures to make (1…1000), spread evenly over the duration.
    public var count: Int
    /// File name pattern of the pictures (`thumb-%02d.jpg`: %d the number, %t the time); nil
    /// writes none (a contact sheet only).
    public var pattern: String?
    /// Width of each picture (the height follows the display aspect ratio); nil: the video's.
    public var width: Int?
    /// 1…100 for JPEG and WebP.
    public var quality: Int
    /// Number of the first picture.
    public var startNumber: Int
    /// One image with every picture in a grid, the time under each; nil: none.
    public var sheetPath: String?
    /// Pictures per row of the sheet.
    public var columns: Int

    public init(count: Int = 10, pattern: String? = "thumb-%02d.jpg", width: Int? = 320, quality: Int = 90,
                startNumber: Int = 1, sheetPath: String? = nil, columns: Int = 5) {
        self.count = count
        self.pattern = pattern
        self.width = width
        self.quality = quality
        self.startNumber = startNumber
        self.sheetPath = sheetPath
        self.columns = columns
    }

    static let countRange = 1...1000
}

/// One thumbnail made.
public struct Thumbnail: Sendable {
    /// The file written (nil when only a sheet was asked for).
    public var path: String?
    /// The frame's time, seconds from the start of the file.
    public var seconds: Double
    /// Why no frame near this point passed the check, if none did (the best one was taken).
    public var fallback: String?
}

/// What `ThumbnailMaker.make` did.
public struct ThumbnailReport: Sendable {
    public var thumbnails: [Thumbnail] = []
    /// Frames decoded in all (the cost: it grows with the count, not with the duration).
    public var framesDecoded = 0
    /// Frames looked at and rejected as near-black or near-uniform.
    public var framesRejected = 0
    /// Why there are fewer pictures than asked for; nil when there are all of them.
    public var shortfall: ThumbnailShortfall?
}
