"""Hershey stroke fonts for putText / getTextSize, read at first use from the data file of the
optional package pyhershey (``pip install mnn[text]``). mnn ships no glyph data of its own, and
runs none of pyhershey's code: its database.toml.xz is read with lzma and tomllib.

pyhershey's data holds the glyphs of the public Hershey distribution by their Hershey numbers, each
as its strokes, advance and bearings. Its coordinates are the original ones moved: x is measured
from the glyph's left bearing (x - left), y upwards from a baseline pyhershey picks by the glyph's
size class (c - y: c = 9 for the simplex, duplex, complex, triplex and script sets, 4 for the plain
set, 6 for the complex small set; a few symbols have another c). This was worked out on the glyphs
the .jhf files of the Hershey-Fonts package also hold with their numbers (every stroke the same
after the transform) and checked on cv2's renders. cv2 draws x - left and y - base (its face's
base line), so each face below stores the one vertical offset c - base its glyphs share, and
the offset of the few glyphs whose c differs or that cv2 places otherwise.

Which glyph draws each character of each cv2 face was found by rendering every glyph of the file
through our rasteriser and comparing with OpenCV 4.10's putText pixel by pixel, at every offset
(tools/derive_hershey_faces.py). OpenCV 5 no longer draws Hershey glyphs (its putText renders
built-in TrueType fonts), so OpenCV 4's output is the reference for these faces.

What the data cannot reproduce (mnn.cv.putText's docstring lists it): a character whose entry
below is (None, advance) is drawn by cv2 with a glyph of OpenCV's own copy of the Hershey data
that the public distribution lacks (numbers it does not have) or holds otherwise: no glyph of
pyhershey draws its pixels at any placement. mnn draws a stand-in there (the glyph pyhershey's own
ASCII mapping of the face names; for FONT_HERSHEY_PLAIN, the simplex glyph shrunk into the plain
cell, for its italic the plain glyph slanted), centred in cv2's advance (measured with cv2's
getTextSize), so that getTextSize and every other character stay exact; its strokes differ:
* every face: '\\', '{', '}'; '#' in all but SCRIPT_COMPLEX and COMPLEX italic; '_' in DUPLEX,
  COMPLEX, TRIPLEX and the italics of the last two; '@' in SIMPLEX, DUPLEX, TRIPLEX, SCRIPT_SIMPLEX
  and TRIPLEX italic; '%' in DUPLEX, TRIPLEX, SCRIPT_COMPLEX and the COMPLEX / TRIPLEX italics;
  '<' '>' in DUPLEX, TRIPLEX and TRIPLEX italic; '[' ']' in SIMPLEX and SCRIPT_SIMPLEX; '&' in
  DUPLEX; 'i' in TRIPLEX italic (the comment of each face in _FACES lists them);
* FONT_HERSHEY_PLAIN: the lower case letters but 'l' and 'x', and #$%()/<>@[\\]^`{}~;
* FONT_HERSHEY_PLAIN | FONT_ITALIC: all but the digits and  !"&'*+,-.:;=?_|.
"""
import importlib.util
import lzma
import os
import re

_PKG_HINT = ("install the optional text extra: pip install mnn[text] (it adds the pyhershey package, "
             "whose data file holds the Hershey glyphs)")

_db = None      # (decompressed TOML text, {glyph number: (start, end) of its [glyphs.N] table})
_glyphs = {}    # glyph number -> (advance, strokes in pyhershey's coordinates)


def _load_db(fn):
    """Finds pyhershey's data file (without importing the package: only its data is used) and
    indexes the [glyphs.N] tables of the decompressed TOML (parsed one glyph at a time, on use)."""
    global _db
    if _db is not None:
        return _db
    spec = importlib.util.find_spec("pyhershey")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError(f"[mnn.cv.{fn}] text needs the Hershey glyphs, which mnn does not ship: {_PKG_HINT}")
    path = os.path.join(list(spec.submodule_search_locations)[0], "database.toml.xz")
    try:
        with open(path, "rb") as f:
            text = lzma.decompress(f.read()).decode("utf-8")
        heads = [(int(m.group(1)), m.start()) for m in re.finditer(r"^\[glyphs\.(\d+)\]", text, re.M)]
        if not heads:
            raise ValueError("no [glyphs.N] table")
    except Exception as e:  # a package version laid out differently
        raise ImportError(f"[mnn.cv.{fn}] could not read the glyph data of the installed pyhershey package "
                          f"({type(e).__name__}: {e}); {_PKG_HINT}") from None
    index = {}
    for (n, start), (_, nxt) in zip(heads, heads[1:] + [(0, len(text))]):
        stop = text.find("\n[", start + 1)   # a table that is not a glyph may follow the last one
        index[n] = (start, nxt if stop < 0 else min(stop + 1, nxt))
    _db = (text, index)
    return _db


def _toml(section):
    try:
        import tomllib  # Python >= 3.11
        return tomllib.loads(section)
    except ImportError:  # Python 3.10: the TOML reader pyhershey itself depends on
        import toml
        return toml.loads(section)


def glyph(n, fn):
    """(advance, strokes) of Hershey glyph n as pyhershey stores it: x measured from the glyph's
    left bearing, y upwards from the baseline of the glyph's size class (see the module's doc)."""
    g = _glyphs.get(n)
    if g is None:
        text, index = _load_db(fn)
        if n not in index:
            raise ImportError(f"[mnn.cv.{fn}] the installed pyhershey package has no Hershey glyph {n}; {_PKG_HINT}")
        start, end = index[n]
        try:
            t = _toml(text[start:end])["glyphs"][str(n)]
            g = (int(t["advance_width"]), [[(int(p[0]), int(p[1])) for p in s] for s in t["segments"]])
        except Exception as e:
            raise ImportError(f"[mnn.cv.{fn}] could not read Hershey glyph {n} of the installed pyhershey "
                              f"package ({type(e).__name__}: {e}); {_PKG_HINT}") from None
        _glyphs[n] = g
    return g


# face -> (cap line, base line, vertical offset, glyphs): cap / base are cv2's cell (getTextSize);
# glyphs lists codes 32.. (ASCII, then for FONT_HERSHEY_COMPLEX cv2's Cyrillic codes 127..190 =
# U+0410..U+044F): a Hershey glyph number (drawn at the face's offset), (number, dx, dy, advance)
# for a glyph cv2 places otherwise (advance None: the glyph's own), or (None, cv2's advance) where
# no glyph of the file draws cv2's (a stand-in is drawn in that advance).
# (printed by tools/derive_hershey_faces.py faces against OpenCV 4.10; the comment of each face lists
# the characters with no glyph in the file and those whose glyph cv2 places otherwise)
_FACES = {
    0: (12, 9, 0, [  # no glyph: '#@[\\]{}'; placed: '_'
        699, 714, 717, (None, 22), 719, 2271, 734, 716, 721, 722, 728, 725, 711, 724, 710, 720, 700, 701,
        702, 703, 704, 705, 706, 707, 708, 709, 712, 713, 2241, 726, 2242, 715, (None, 29), 501, 502, 503,
        504, 505, 506, 507, 508, 509, 510, 511, 512, 513, 514, 515, 516, 517, 518, 519, 520, 521, 522, 523,
        524, 525, 526, (None, 14), (None, 22), (None, 14), 2247, (999, 1, -2, 18), 2249, 601, 602, 603, 604,
        605, 606, 607, 608, 609, 610, 611, 612, 613, 614, 615, 616, 617, 618, 619, 620, 621, 622, 623, 624,
        625, 626, (None, 14), 723, (None, 14), 2246,
    ]),
    1: (4, 5, -1, [  # no glyph: '#$%()/<>@[\\]^`abcdefghijkmnopqrstuvwyz{}~'; placed: '_|'
        199, 214, 217, (None, 11), (None, 10), (None, 13), 234, (216, 0, 4, None), (None, 6), (None, 6),
        (1219, 0, 4, None), 225, 211, 224, 210, (None, 10), 200, 201, 202, 203, 204, 205, 206, 207, 208,
        209, 212, 213, (None, 10), 226, (None, 10), 215, (None, 14), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
        13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, (None, 6), (None, 10), (None, 6),
        (None, 12), (224, -1, 3, 10), (None, 6), (None, 9), (None, 10), (None, 10), (None, 10), (None, 10),
        (None, 8), (None, 10), (None, 10), (None, 4), (None, 5), (None, 9), 9, (None, 14), (None, 10),
        (None, 10), (None, 10), (None, 10), (None, 8), (None, 9), (None, 8), (None, 10), (None, 8),
        (None, 12), (227, 0, 5, None), (None, 10), (None, 10), (None, 6), (808, 2, 4, 4), (None, 6),
        (None, 10),
    ]),
    2: (12, 9, 0, [  # no glyph: '#%&<>@\\_{}'; placed: ''
        2699, 2714, 2728, (None, 23), 2719, (None, 24), (None, 25), 2727, 2721, 2722, 2723, 2725, 2711,
        2724, 2710, 2720, 2700, 2701, 2702, 2703, 2704, 2705, 2706, 2707, 2708, 2709, 2712, 2713,
        (None, 24), 2726, (None, 24), 2715, (None, 27), 2501, 2502, 2503, 2504, 2505, 2506, 2507, 2508,
        2509, 2510, 2511, 2512, 2513, 2514, 2515, 2516, 2517, 2518, 2519, 2520, 2521, 2522, 2523, 2524,
        2525, 2526, 2223, (None, 22), 2224, 2247, (None, 18), 2249, 2601, 2602, 2603, 2604, 2605, 2606,
        2607, 2608, 2609, 2610, 2611, 2612, 2613, 2614, 2615, 2616, 2617, 2618, 2619, 2620, 2621, 2622,
        2623, 2624, 2625, 2626, (None, 15), 2229, (None, 15), 2246,
    ]),
    3: (12, 9, 0, [  # no glyph: '#\\_{}'; placed: ''
        2199, 2214, 2217, (None, 22), 2274, 2271, 2272, 2216, 2221, 2222, 2219, 2232, 2211, 2231, 2210,
        2220, 2200, 2201, 2202, 2203, 2204, 2205, 2206, 2207, 2208, 2209, 2212, 2213, 2241, 2238, 2242,
        2215, 2273, 2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008, 2009, 2010, 2011, 2012, 2013, 2014,
        2015, 2016, 2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026, 2223, (None, 22), 2224,
        2247, (None, 18), 2249, 2101, 2102, 2103, 2104, 2105, 2106, 2107, 2108, 2109, 2110, 2111, 2112,
        2113, 2114, 2115, 2116, 2117, 2118, 2119, 2120, 2121, 2122, 2123, 2124, 2125, 2126, (None, 15),
        2229, (None, 15), 2246, 2001, 2802, 2002, 2029, 2805, 2005, 2807, 2808, 2809, 2810, 2811, 2812,
        2013, 2008, 2015, 2042, 2016, 2003, 2020, 2820, 2821, 2024, 2823, 2824, 2825, 2826, 2827, 2828,
        2829, 2830, 2831, 2832, 2101, 2902, 2903, 2904, 2905, 2105, 2907, 2908, 2909, 2910, 2911, 2912,
        2913, 2914, 2115, 2916, 2116, 2103, 2919, 2920, 2921, 2124, 2923, 2924, 2925, 2926, 2927, 2928,
        2929, 2930, 2931, 2932,
    ]),
    4: (12, 9, 0, [  # no glyph: '#%<>@\\_{}'; placed: 'J'
        3199, 3214, 3228, (None, 23), 3219, (None, 24), 3218, 3227, 3221, 3222, 3223, 3225, 3211, 3224,
        3210, 3220, 3200, 3201, 3202, 3203, 3204, 3205, 3206, 3207, 3208, 3209, 3212, 3213, (None, 24),
        3226, (None, 24), 3215, (None, 27), 3001, 3002, 3003, 3004, 3005, 3006, 3007, 3008, 3009,
        (3010, 0, 0, 16), 3011, 3012, 3013, 2039, 3015, 3016, 3017, 3018, 3019, 3020, 3021, 3022, 3023,
        3024, 3025, 3026, 2223, (None, 22), 2224, 2247, (None, 18), 2249, 3101, 3102, 3103, 3104, 3105,
        3106, 3107, 3108, 3109, 3110, 3111, 3112, 3113, 3114, 3115, 3116, 3117, 3118, 3119, 3120, 3121,
        3122, 3123, 3124, 3125, 3126, (None, 15), 2229, (None, 15), 2246,
    ]),
    5: (7, 6, 0, [  # no glyph: '#\\{}'; placed: '_'
        1199, 1214, (1217, 0, 3, None), (None, 14), 1274, (1271, 0, -2, None), 1272, (1216, 0, 3, None),
        1221, 1222, (1219, 0, -2, None), 1232, 1211, 1231, 1210, 1220, 1200, 1201, 1202, 1203, 1204, 1205,
        1206, 1207, 1208, 1209, 1212, (2213, 0, 3, None), (1241, 0, -2, None), 1238, (1242, 0, -2, None),
        1215, (1273, 0, -2, None), 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1010, 1011, 1012,
        1013, 1014, 1015, 1016, 1017, 1018, 1019, 1020, 1021, 1022, 1023, 1024, 1025, 1026,
        (1223, 0, -2, None), (None, 15), (1224, 0, -2, None), (1247, 0, 3, None), (998, 1, 1, 18),
        (1249, 0, 3, None), 1101, 1102, 1103, 1104, 1105, 1106, 1107, 1108, 1109, 1110, 1111, 1112, 1113,
        1114, 1115, 1116, 1117, 1118, 1119, 1120, 1121, 1122, 1123, 1124, 1125, 1126, (None, 11), 1229,
        (None, 11), (1246, 0, -2, None),
    ]),
    6: (12, 9, 0, [  # no glyph: '#@[\\]{}'; placed: '_'
        699, 714, 717, (None, 22), 719, 2271, 734, 716, 721, 722, 728, 725, 711, 724, 710, 2220, 700, 701,
        702, 703, 704, 705, 706, 707, 708, 709, 2212, 713, 2241, 726, 2242, 715, (None, 29), 551, 552, 553,
        554, 555, 556, 557, 558, 559, 560, 561, 562, 563, 564, 565, 566, 567, 568, 569, 570, 571, 572, 573,
        574, 575, 576, (None, 14), (None, 22), (None, 14), 2247, (999, 1, -2, 18), 2249, 651, 652, 653, 654,
        655, 656, 657, 658, 659, 660, 661, 662, 663, 664, 665, 666, 667, 668, 669, 670, 671, 672, 673, 674,
        675, 676, (None, 14), 723, (None, 14), 2246,
    ]),
    7: (12, 9, 0, [  # no glyph: '%\\{}'; placed: '_'
        2749, 2764, 2778, 2275, 2769, (None, 26), 2768, 2777, 2771, 2772, 2219, 2775, 2211, 2774, 2210,
        2220, 2750, 2751, 2752, 2753, 2754, 2755, 2756, 2757, 2758, 2759, 2212, 2213, 2241, 2776, 2242,
        2215, 2273, 2551, 2552, 2553, 2554, 2555, 2556, 2557, 2558, 2559, 2560, 2561, 2562, 2563, 2564,
        2565, 2566, 2567, 2568, 2569, 2570, 2571, 2572, 2573, 2574, 2575, 2576, 2223, (None, 22), 2224,
        2247, (999, 1, -2, 18), 2249, 2651, 2652, 2653, 2654, 2655, 2656, 2657, 2658, 2659, 2660, 2661,
        2662, 2663, 2664, 2665, 2666, 2667, 2668, 2669, 2670, 2671, 2672, 2673, 2674, 2675, 2676,
        (None, 15), 2229, (None, 15), 2246,
    ]),
    17: (4, 5, -1, [  # no glyph: '#$%()/<>@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^`abcdefghijklmnopqrstuvwxyz{}~'; placed: '_|'
        199, 214, 217, (None, 11), (None, 10), (None, 13), 234, (216, 0, 4, None), (None, 6), (None, 6),
        (1219, 0, 4, None), 225, 211, 224, 210, (None, 10), 200, 201, 202, 203, 204, 205, 206, 207, 208,
        209, 212, 213, (None, 10), 226, (None, 10), 215, (None, 14), (None, 10), (None, 10), (None, 12),
        (None, 11), (None, 9), (None, 9), (None, 12), (None, 11), (None, 5), (None, 7), (None, 9),
        (None, 8), (None, 13), (None, 11), (None, 12), (None, 10), (None, 12), (None, 10), (None, 10),
        (None, 9), (None, 12), (None, 10), (None, 13), (None, 9), (None, 9), (None, 10), (None, 6),
        (None, 10), (None, 6), (None, 12), (224, -1, 3, 10), (None, 6), (None, 11), (None, 10), (None, 10),
        (None, 11), (None, 10), (None, 7), (None, 11), (None, 9), (None, 5), (None, 6), (None, 8),
        (None, 5), (None, 15), (None, 10), (None, 10), (None, 11), (None, 11), (None, 9), (None, 8),
        (None, 7), (None, 10), (None, 10), (None, 14), (None, 10), (None, 10), (None, 8), (None, 6),
        (808, 2, 4, 4), (None, 6), (None, 10),
    ]),
    19: (12, 9, 0, [  # no glyph: '%\\_{}'; placed: ''
        2749, 2764, 2778, 2275, 2769, (None, 26), 2768, 2777, 2771, 2772, 2219, 2775, 2211, 2774, 2210,
        2220, 2750, 2751, 2752, 2753, 2754, 2755, 2756, 2757, 2758, 2759, 2212, 2213, 2241, 2776, 2242,
        2765, 2273, 2051, 2052, 2053, 2054, 2055, 2056, 2057, 2058, 2059, 2060, 2061, 2062, 2063, 2064,
        2065, 2066, 2067, 2068, 2069, 2070, 2071, 2072, 2073, 2074, 2075, 2076, 2223, (None, 22), 2224,
        2247, (None, 18), 2249, 2151, 2152, 2153, 2154, 2155, 2156, 2157, 2158, 2159, 2160, 2161, 2162,
        2163, 2164, 2165, 2166, 2167, 2168, 2169, 2170, 2171, 2172, 2173, 2174, 2175, 2176, (None, 15),
        2229, (None, 15), 2246,
    ]),
    20: (12, 9, 0, [  # no glyph: '#%<>@\\_i{}'; placed: ''
        3249, 3264, 3278, (None, 23), 3269, (None, 24), 3268, 3277, 3271, 3272, 3223, 3275, 3261, 3274,
        3260, 3270, 3250, 3251, 3252, 3253, 3254, 3255, 3256, 3257, 3258, 3259, 3262, 3263, (None, 24),
        3276, (None, 24), 3265, (None, 27), 3051, 3052, 3053, 3054, 3055, 3056, 3057, 3058, 3059, 3060,
        3061, 3062, 3063, 2064, 3065, 3066, 3067, 3068, 3069, 3070, 3071, 3072, 3073, 3074, 3075, 3076,
        2223, (None, 22), 2224, 2247, (None, 18), 2249, 3151, 3152, 3153, 3154, 3155, 3156, 3157, 3158,
        (None, 13), 3160, 3161, 3162, 3163, 3164, 3165, 3166, 3167, 3168, 3169, 3170, 3171, 3172, 3173,
        3174, 3175, 3176, (None, 15), 2229, (None, 15), 2246,
    ]),
    21: (7, 6, 0, [  # no glyph: '#\\{}'; placed: '_'
        1199, 1214, (1217, 0, 3, None), (None, 14), 1274, (1271, 0, -2, None), 1272, (1216, 0, 3, None),
        1221, 1222, (1219, 0, -2, None), 1232, 1211, 1231, 1210, 1220, 1200, 1201, 1202, 1203, 1204, 1205,
        1206, 1207, 1208, 1209, 1212, 1213, (1241, 0, -2, None), 1238, (1242, 0, -2, None), 1215,
        (1273, 0, -2, None), 1051, 1052, 1053, 1054, 1055, 1056, 1057, 1058, 1059, 1060, 1061, 1062, 1063,
        1064, 1065, 1066, 1067, 1068, 1069, 1070, 1071, 1072, 1073, 1074, 1075, 1076, (1223, 0, -2, None),
        (None, 15), (1224, 0, -2, None), (1247, 0, 3, None), (998, 1, 1, 18), (1249, 0, 3, None), 1151,
        1152, 1153, 1154, 1155, 1156, 1157, 1158, 1159, 1160, 1161, 1162, 1163, 1164, 1165, 1166, 1167,
        1168, 1169, 1170, 1171, 1172, 1173, 1174, 1175, 1176, (None, 11), 1229, (None, 11),
        (1246, 0, -2, None),
    ]),
}

# stand-ins of these faces: (other face, slant): its glyph shrunk into this face's cell (baseline
# kept) and slanted (x + slant * height above the baseline; cv2's plain italic leans by 1/3):
# cv2's plain lower case and italics have no glyphs in the file
_STAND_INS = {1: (0, 0.0), 1 | 16: (1, 1 / 3)}
# stand-ins of the other faces: the glyph pyhershey's own ASCII mapping names, at the face offset
_OWN = {0: "roman_simplex", 2: "roman_duplex", 3: "roman_complex", 4: "roman_triplex",
        5: "roman_complex_small", 6: "script_simplex", 7: "script_complex", 3 | 16: "italic_complex",
        4 | 16: "italic_triplex", 5 | 16: "italic_complex_small"}

_mappings = None
_tables = {}    # face -> (cap, base, {code: (left, right, strokes)}), strokes in cv2's glyph units


def _mapping(name, fn):
    global _mappings
    if _mappings is None:
        text, _ = _load_db(fn)
        try:
            _mappings = _toml(text[:text.index("\n[glyphs.")])["mappings"]
        except Exception as e:
            raise ImportError(f"[mnn.cv.{fn}] could not read the ASCII mappings of the installed pyhershey "
                              f"package ({type(e).__name__}: {e}); {_PKG_HINT}") from None
    return _mappings[name]


def _placed(n, dx, dy, adv, fn):
    """Glyph n in cv2's terms: left bearing 0, right = advance, x + dx, dy - y (y down)."""
    own, strokes = glyph(n, fn)
    # cv2 draws a stroke only when it has two points or more
    return 0, own if adv is None else adv, [[(x + dx, dy - y) for x, y in s] for s in strokes if len(s) > 1]


def missing(face):
    """The characters (as codes) of a face that mnn draws with stand-in glyphs."""
    return {i + 32 for i, e in enumerate(_FACES[face][3]) if isinstance(e, tuple) and e[0] is None}


def _fit(g, adv):
    """A stand-in glyph centred in cv2's advance, so that the advance (hence getTextSize and the
    place of every later character) is cv2's; only this character's strokes differ."""
    left, right, strokes = g
    dx = (adv - (right - left)) / 2 - left
    return 0, adv, [[(x + dx, y) for x, y in s] for s in strokes]


def face_table(face, fn):
    """(cap line, base line, {code: (left, right, strokes)}) of a cv2 face (italic bit included)."""
    tab = _tables.get(face)
    if tab is not None:
        return tab
    cap, base, dy0, entries = _FACES[face]
    glyphs, stand_ins = {}, {}
    for i, e in enumerate(entries):
        code = i + 32
        n, dx, dy, adv = (e, 0, dy0, None) if isinstance(e, int) else e if len(e) == 4 else (None, 0, 0, e[1])
        if n is None:
            stand_ins[code] = adv
        else:   # stored offsets are relative to the baseline; cv2 draws y - base
            glyphs[code] = _placed(n, dx, dy + base, adv, fn)
    if face in _STAND_INS:
        src, slant = _STAND_INS[face]
        scap, sbase, sglyphs = face_table(src, fn)
        k = (cap + base) / (scap + sbase)
        for code, adv in stand_ins.items():   # shrunk into this face's cell, baseline on the baseline
            l, r, strokes = sglyphs[code]
            strokes = [[(x * k, (y - sbase) * k) for x, y in s] for s in strokes]
            g = (l * k, r * k, [[(x - y * slant, y + base) for x, y in s] for s in strokes])
            glyphs[code] = _fit(g, adv)
    else:
        own = _mapping(_OWN[face], fn)
        for code, adv in stand_ins.items():
            glyphs[code] = _fit(_placed(own[code - 32], 0, dy0 + base, None, fn), adv)
    tab = (cap, base, glyphs)
    _tables[face] = tab
    return tab


def codes(text, face):
    """The glyph codes cv2 draws for `text` (its UTF-8 bytes, cv2's readCheck): ASCII 32..126 as
    is; under FONT_HERSHEY_COMPLEX, Cyrillic А..я become 127..190 and any other multi-byte
    character one '?'; under other faces every byte outside 32..126 is a '?'."""
    b = text.encode("utf-8", "surrogatepass")
    out, i, n = [], 0, len(b)
    while i < n:
        c, lo, hi = b[i], 32, 127
        nxt = b[i + 1] if i + 1 < n else 0
        if c >= 0x80 and face == 3:
            if c == 0xD0 and 0x90 <= nxt <= 0xBF:
                c, lo, hi = nxt - 17, 127, 175
                i += 1
            elif c == 0xD1 and 0x80 <= nxt <= 0x8F:
                c, lo, hi = nxt + 47, 175, 191
                i += 1
            else:
                for lead in (0xC0, 0xE0, 0xF0, 0xF8, 0xFC):
                    if c >= lead and (b[i + 1] if i + 1 < n else 0) != 0:
                        i += 1
                c = 63
        if not lo <= c < hi:
            c = 63
        out.append(c)
        i += 1
    return out
