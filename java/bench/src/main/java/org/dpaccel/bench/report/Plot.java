package org.dpaccel.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;

import javax.imageio.ImageIO;

/**
 * A small line chart drawn with java.awt into a PNG (headless): one series per backend, x linear
 * or log2, y linear from 0 or log10 when the series span more than 30x.
 */
public final class Plot {
    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
        new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
        new Color(0xbcbd22), new Color(0x17becf)};
    private static final int W = 900, H = 520, L = 80, R = 190, T = 50, B = 60;

    private final String title, xLabel, yLabel;
    private final boolean logX;
    private final Map<String, SortedMap<Integer, Double>> series = new LinkedHashMap<>();

    public Plot(String title, String xLabel, String yLabel, boolean logX) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
    }

    public Plot add(String name, SortedMap<Integer, Double> points) {
        if (!points.isEmpty()) {
            series.put(name, points);
        }
        return this;
    }

    public boolean isEmpty() {
        return series.isEmpty();
    }

    public void write(Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        double xmin = Double.MAX_VALUE, xmax = -Double.MAX_VALUE, ymin = Double.MAX_VALUE, ymax = 0;
        for (SortedMap<Integer, Double> s : series.values()) {
            for (Map.Entry<Integer, Double> e : s.entrySet()) {
                xmin = Math.min(xmin, e.getKey());
                xmax = Math.max(xmax, e.getKey());
                if (e.getValue() > 0) {
                    ymin = Math.min(ymin, e.getValue());
                    ymax = Math.max(ymax, e.getValue());
                }
            }
        }
        if (series.isEmpty() || ymax <= 0) {
            xmin = 1;
            xmax = 2;
            ymin = 0.1;
            ymax = 1;
        }
        if (xmax <= xmin) {
            xmax = xmin + 1;
        }
        boolean logY = ymax / ymin > 30;
        double y0, y1;
        if (logY) {
            y0 = Math.floor(Math.log10(ymin));
            y1 = Math.ceil(Math.log10(ymax));
        } else {
            y0 = 0;
            y1 = niceCeil(ymax * 1.05);
        }
        double fx0 = logX ? log2(xmin) : xmin, fx1 = logX ? log2(xmax) : xmax;
        double pad = (fx1 - fx0) * 0.03;
        fx0 -= pad;
        fx1 += pad;
        int pw = W - L - R, ph = H - T - B;

        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        g.setColor(Color.BLACK);
        g.drawString(title, L, 28);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        FontMetrics fm = g.getFontMetrics();
        // grid + y ticks
        List<double[]> yticks = new ArrayList<>(); // {value in axis units, label value}
        if (logY) {
            for (double e = y0; e <= y1 + 1e-9; e++) {
                yticks.add(new double[] {e, Math.pow(10, e)});
                if (y1 - y0 <= 4 && e < y1) {
                    yticks.add(new double[] {e + Math.log10(2), 2 * Math.pow(10, e)});
                    yticks.add(new double[] {e + Math.log10(5), 5 * Math.pow(10, e)});
                }
            }
        } else {
            double step = niceCeil((y1 - y0) / 6);
            for (double v = 0; v <= y1 + 1e-9; v += step) {
                yticks.add(new double[] {v, v});
            }
        }
        for (double[] t : yticks) {
            int y = T + ph - (int) Math.round((t[0] - y0) / (y1 - y0) * ph);
            g.setColor(new Color(0xe6e6e6));
            g.drawLine(L, y, L + pw, y);
            g.setColor(Color.DARK_GRAY);
            String s = fmt(t[1]);
            g.drawString(s, L - 8 - fm.stringWidth(s), y + 4);
        }
        // x ticks at the data x values
        java.util.TreeSet<Integer> xs = new java.util.TreeSet<>();
        series.values().forEach(s -> xs.addAll(s.keySet()));
        for (int x : xs) {
            int px = L + (int) Math.round(((logX ? log2(x) : x) - fx0) / (fx1 - fx0) * pw);
            g.setColor(new Color(0xf0f0f0));
            g.drawLine(px, T, px, T + ph);
            g.setColor(Color.DARK_GRAY);
            String s = Integer.toString(x);
            g.drawString(s, px - fm.stringWidth(s) / 2, T + ph + 18);
        }
        g.setColor(Color.BLACK);
        g.drawRect(L, T, pw, ph);
        g.drawString(xLabel, L + pw / 2 - fm.stringWidth(xLabel) / 2, H - 18);
        Graphics2D gr = (Graphics2D) g.create();
        gr.rotate(-Math.PI / 2);
        String yl = yLabel + (logY ? " (log scale)" : "");
        gr.drawString(yl, -(T + ph / 2 + fm.stringWidth(yl) / 2), 22);
        gr.dispose();
        // series
        int i = 0;
        g.setStroke(new BasicStroke(2.2f));
        for (Map.Entry<String, SortedMap<Integer, Double>> s : series.entrySet()) {
            Color c = PALETTE[i % PALETTE.length];
            g.setColor(c);
            int px = -1, py = -1;
            for (Map.Entry<Integer, Double> e : s.getValue().entrySet()) {
                if (!(e.getValue() > 0)) {
                    continue;
                }
                double yv = logY ? Math.log10(e.getValue()) : e.getValue();
                int x = L + (int) Math.round(((logX ? log2(e.getKey()) : e.getKey()) - fx0) / (fx1 - fx0) * pw);
                int y = T + ph - (int) Math.round((yv - y0) / (y1 - y0) * ph);
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                g.fillOval(x - 4, y - 4, 8, 8);
                px = x;
                py = y;
            }
            int ly = T + 12 + i * 20;
            g.drawLine(L + pw + 14, ly - 4, L + pw + 38, ly - 4);
            g.fillOval(L + pw + 22, ly - 8, 8, 8);
            g.setColor(Color.BLACK);
            g.drawString(s.getKey(), L + pw + 44, ly);
            i++;
        }
        if (series.isEmpty()) {
            g.setColor(Color.GRAY);
            g.drawString("no data", L + pw / 2 - 20, T + ph / 2);
        }
        g.dispose();
        ImageIO.write(img, "png", png.toFile());
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    static double niceCeil(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v - 1e-12) {
                return m * p;
            }
        }
        return 10 * p;
    }

    static String fmt(double v) {
        if (v == 0) {
            return "0";
        }
        if (v >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (v >= 1) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2g", v);
    }
}
