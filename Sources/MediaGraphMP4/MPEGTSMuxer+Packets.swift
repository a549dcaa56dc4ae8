import MediaGraphCore

/// One packet on the wire, as mpegtsenc.c's mpegts_write_packet_internal and mpegts_write_pes.
extension MPEGTSMuxer {
    /// ffmpeg's default pes_payload_size: audio frames are gathered into PES packets up to this.
    static let audioPayloadSize = 2930
    /// Audio frames gathered into one PES packet span less than this (90 kHz; max_delay / 2).
    static let maxAudioDelay: Int64 = muxDelay / 2

    func write(_ sample: MP4Sample, track k: Int) throws {
        let t = tracks[k]
        let shift = offset! + 2 * Self.muxDelay
        let pts = sample.pts + shift, dts = sample.dts + shift
        let number = t.written
        t.written += 1
        if let c = sample.configuration { t.configuration = c }
        let isKey = sample.isSync || !t.isVideo
        if let micro = segmentMicroseconds,
           segments.cutsBefore(pts: sample.pts, duration: sample.duration, isKey: isKey, track: k, isVideo: t.isVideo,
                               written: tracks.reduce(0) { $0 + $1.written } - 1, segmentMicroseconds: micro) {
            try flushAudio()
            try flushPackets()
            try output.endSegment(duration: segments.cut(at: sample.pts))
            resendTables = true
        }
        if t.isVideo {
            if !t.accessUnit!.isConfigured {
                guard let c = t.configuration else { throw MPEGTSMuxerError.missingConfiguration(track: t.name) }
                t.accessUnit!.configure(c)
            } else if let c = sample.configuration {
                t.accessUnit!.configure(c)
            }
            do {
                try sample.data.withUnsafeBytes { try t.accessUnit!.build($0, isKeyFrame: isKey) }
            } catch let e as MPEGTSVideoAccessUnit.Failure {
                throw MPEGTSMuxerError.invalidSample(track: t.name, sample: number, reason: e.reason)
            }
            try t.accessUnit!.withBytes { try writePES(k, $0, pts: pts, dts: dts, key: isKey) }
        } else {
            try writeAudio(sample, track: k, number: number, pts: pts, dts: dts)
        }
        try flushPackets(ifAbove: 1 << 20)
    }

    /// Audio frames gather into one PES packet until the next would pass `audioPayloadSize`
    /// bytes or start `maxAudioDelay` after the first; AAC gets ADTS headers.
    private func writeAudio(_ sample: MP4Sample, track k: Int, number: Int, pts: Int64, dts: Int64) throws {
        let t = tracks[k]
        t.frame.removeAll(keepingCapacity: true)
        try sample.data.withUnsafeBytes { raw in
            guard t.codec == .aac else {
                t.frame.append(contentsOf: raw)
                return
            }
            guard raw.count >= 2 else { throw MPEGTSMuxerError.invalidSample(track: t.name, sample: number, reason: "AAC packet of \(raw.count) byte is too short") }
            if raw[0] == 0xFF && raw[1] & 0xF0 == 0xF0 {
                t.frame.append(contentsOf: raw) // already ADTS
                return
            }
            if t.adts == nil {
                guard case .aac(let c)? = t.configuration else { throw MPEGTSMuxerError.missingConfiguration(track: t.name) }
                do { t.adts = try ADTSFraming(configuration: c) } catch {
                    throw MPEGTSMuxerError.invalidSample(track: t.name, sample: number, reason: "\(error)")
                }
            }
            do { try t.adts!.append(raw, to: &t.frame) } catch {
                throw MPEGTSMuxerError.invalidSample(track: t.name, sample: number, reason: "\(error)")
            }
        }
        if !t.payload.isEmpty && (t.payload.count + t.frame.count > Self.audioPayloadSize || dts - t.payloadDTS >= Self.maxAudioDelay) {
            try flushAudio(k)
        }
        if t.frame.count > Self.audioPayloadSize {
            try t.frame.withUnsafeBytes { try writePES(k, $0, pts: pts, dts: dts, key: true) }
            return
        }
        if t.payload.isEmpty {
            t.payloadPTS = pts
            t.payloadDTS = dts
        }
        t.payload += t.frame
    }

    /// Writes the audio waiting in track `k` (every track when nil) as a PES packet.
    func flushAudio(_ k: Int? = nil) throws {
        for i in k.map({ [$0] }) ?? Array(tracks.indices) where !tracks[i].payload.isEmpty {
            let t = tracks[i]
            try t.payload.withUnsafeBytes { try writePES(i, $0, pts: t.payloadPTS, dts: t.payloadDTS, key: true) }
            t.payload.removeAll(keepingCapacity: true)
        }
    }

    /// One PES packet: the tables first when due, a PCR on the PCR track when due or at a key
    /// frame, the random access indicator at key frames.
    func writePES(_ k: Int, _ payload: UnsafeRawBufferPointer, pts: Int64, dts: Int64, key: Bool) throws {
        let t = tracks[k]
        guard payload.count > 0 else { return }
        let pcr = (dts - Self.muxDelay) * 300
        let forceTables = resendTables
        resendTables = false
        if forceTables || lastSDTTime == nil || pcr - lastSDTTime! >= sdtPeriod {
            lastSDTTime = max(pcr, lastSDTTime ?? pcr)
            packetizer.appendSection(sections.sdt, pid: MPEGTSProgram.sdtPID, counter: &sdtCounter)
        }
        if forceTables || (t.isVideo && key && !t.previousKey) || lastPATTime == nil || pcr - lastPATTime! >= patPeriod {
            lastPATTime = max(pcr, lastPATTime ?? pcr)
            packetizer.appendSection(sections.pat, pid: MPEGTSProgram.patPID, counter: &patCounter)
            packetizer.appendSection(sections.pmt, pid: MPEGTSProgram.pmtPID, counter: &pmtCounter)
        }
        var writePCR = false
        if t.pcrPeriod > 0 {
            if pcr - t.lastPCR >= t.pcrPeriod {
                t.lastPCR = max(pcr - t.pcrPeriod, t.lastPCR + t.pcrPeriod)
                writePCR = true
            }
            if key { writePCR = true }
        }
        let s = program.streams[k]
        packetizer.appendPES(.init(pid: s.pid, streamID: s.streamID, pts: pts, dts: dts, randomAccess: key,
                                   pcr: writePCR ? pcr : nil, unboundedLength: t.isVideo),
                             payload: payload, counter: &t.counter)
        t.previousKey = key
    }
}
