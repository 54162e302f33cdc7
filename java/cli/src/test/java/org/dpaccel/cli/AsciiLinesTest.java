package org.dpaccel.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The byte writer behind the distance files: numbers from its table and digit by digit, across
 * buffer flushes, equal to Long.toString. */
class AsciiLinesTest {
    @Test
    void numbersEqualLongToStringInAndAboveTheTable() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(bytes, false, StandardCharsets.US_ASCII);
        AsciiLines w = new AsciiLines(ps).numbersUpTo(99_999);
        StringBuilder want = new StringBuilder();
        Random rnd = new Random(5);
        // enough text to flush the 1 MB buffer several times, so the 8-byte stores meet its end
        for (int i = 0; i < 400_000; i++) {
            long v = switch (i % 5) {
                case 0 -> i % 100_001; // 0 .. the table's end and one past it
                case 1 -> rnd.nextInt(10);
                case 2 -> 99_990 + rnd.nextInt(20);
                case 3 -> Integer.toUnsignedLong(rnd.nextInt());
                default -> rnd.nextInt(100_000);
            };
            w.num(v).ch('\t');
            want.append(v).append('\t');
        }
        w.flush();
        ps.flush();
        assertEquals(want.toString(), bytes.toString(StandardCharsets.US_ASCII));
    }
}
