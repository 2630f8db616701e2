"""cvtColor and cvtColorTwoPlane with cv2's COLOR_* codes.

Every conversion runs in one native primitive, cv_color (csrc/ops/cv/color.cpp for the shape
rule, csrc/backends/cpu/simd/cv/color.cpp for the kernels). This module maps a cv2 code to the
primitive's parameters and raises cv2's errors for channel counts and depths cv2 rejects.
Supported: RGB/BGR channel swaps with alpha added or dropped, GRAY, XYZ, YCrCb, YUV, HSV(_FULL),
HLS(_FULL), Lab and Luv (both ways), sRGB and linear, and the camera formats NV12/NV21/YV12/I420
(to RGB/BGR/RGBA/BGRA/GRAY, and RGB/BGR(A) to I420/YV12), 16-bit packed BGR565/BGR555 both ways,
packed YUV 4:2:2 (YUY2/UYVY/YVYU) both ways, RGBA <-> mRGBA, and Bayer demosaicing: bilinear to
BGR(A)/RGB(A)/GRAY and edge-aware to BGR/RGB (uint8 and uint16), VNG to BGR/RGB (uint8). These
four families are their own primitives (csrc/ops/cv/color_ext.cpp, kernels in
csrc/backends/cpu/kernels/cv/color_*.cpp). VNG with dstCn=4 is refused (cv2 writes 3-channel
pixels into a 4-channel image there).

Lab/Luv reproduce cv2's tables (gamma and cube-root tables and splines, the 33^3 RGB->Lab/Luv
table with trilinear interpolation, the fixed-point uint8 pipelines, the inverse-sRGB spline):
uint8 and float32 results equal cv2's bits both ways (see csrc/backends/cpu/simd/cv/color_lab.cpp).
"""
import platform as _platform

from .. import _core
from .. import numpy as _np
from ._common import as_image, channels, contiguous, error, fail, memo_type  # noqa: F401
from . import _public
from . import _color_ycc

# cv2's x86 wheels carry Intel IPP, which some conversions go through (see _HSV below)
_X86 = _platform.machine().lower() in ("x86_64", "amd64", "i386", "i686", "x86")

# The primitive's conversions (ColorOp in csrc/ops/cv/color.cpp).
_PERM, _GRAY, _FROMGRAY, _HSV, _HSV_INV, _YCC, _YCC_INV, _XYZ, _XYZ_INV = range(9)
_YUV420SP, _YUV420P, _TO_YUV420P = 9, 10, 11
_LAB, _LAB_INV, _LUV, _LUV_INV = 12, 13, 14, 15

COLOR_BGR2BGRA = 0
COLOR_RGB2RGBA = 0
COLOR_BGRA2BGR = 1
COLOR_RGBA2RGB = 1
COLOR_BGR2RGBA = 2
COLOR_RGB2BGRA = 2
COLOR_BGRA2RGB = 3
COLOR_RGBA2BGR = 3
COLOR_BGR2RGB = 4
COLOR_RGB2BGR = 4
COLOR_BGRA2RGBA = 5
COLOR_RGBA2BGRA = 5
COLOR_BGR2GRAY = 6
COLOR_RGB2GRAY = 7
COLOR_GRAY2BGR = 8
COLOR_GRAY2RGB = 8
COLOR_GRAY2BGRA = 9
COLOR_GRAY2RGBA = 9
COLOR_BGRA2GRAY = 10
COLOR_RGBA2GRAY = 11
COLOR_BGR2BGR565 = 12
COLOR_RGB2BGR565 = 13
COLOR_BGR5652BGR = 14
COLOR_BGR5652RGB = 15
COLOR_BGRA2BGR565 = 16
COLOR_RGBA2BGR565 = 17
COLOR_BGR5652BGRA = 18
COLOR_BGR5652RGBA = 19
COLOR_GRAY2BGR565 = 20
COLOR_BGR5652GRAY = 21
COLOR_BGR2BGR555 = 22
COLOR_RGB2BGR555 = 23
COLOR_BGR5552BGR = 24
COLOR_BGR5552RGB = 25
COLOR_BGRA2BGR555 = 26
COLOR_RGBA2BGR555 = 27
COLOR_BGR5552BGRA = 28
COLOR_BGR5552RGBA = 29
COLOR_GRAY2BGR555 = 30
COLOR_BGR5552GRAY = 31
COLOR_BGR2XYZ = 32
COLOR_RGB2XYZ = 33
COLOR_XYZ2BGR = 34
COLOR_XYZ2RGB = 35
COLOR_BGR2YCR_CB = 36
COLOR_BGR2YCrCb = 36
COLOR_RGB2YCR_CB = 37
COLOR_RGB2YCrCb = 37
COLOR_YCR_CB2BGR = 38
COLOR_YCrCb2BGR = 38
COLOR_YCR_CB2RGB = 39
COLOR_YCrCb2RGB = 39
COLOR_BGR2HSV = 40
COLOR_RGB2HSV = 41
COLOR_BGR2LAB = 44
COLOR_BGR2Lab = 44
COLOR_RGB2LAB = 45
COLOR_RGB2Lab = 45
COLOR_BAYER_BG2BGR = 46
COLOR_BAYER_BGGR2RGB = 46
COLOR_BAYER_RG2RGB = 46
COLOR_BAYER_RGGB2BGR = 46
COLOR_BayerBG2BGR = 46
COLOR_BayerBGGR2RGB = 46
COLOR_BayerRG2RGB = 46
COLOR_BayerRGGB2BGR = 46
COLOR_BAYER_GB2BGR = 47
COLOR_BAYER_GBRG2RGB = 47
COLOR_BAYER_GR2RGB = 47
COLOR_BAYER_GRBG2BGR = 47
COLOR_BayerGB2BGR = 47
COLOR_BayerGBRG2RGB = 47
COLOR_BayerGR2RGB = 47
COLOR_BayerGRBG2BGR = 47
COLOR_BAYER_BG2RGB = 48
COLOR_BAYER_BGGR2BGR = 48
COLOR_BAYER_RG2BGR = 48
COLOR_BAYER_RGGB2RGB = 48
COLOR_BayerBG2RGB = 48
COLOR_BayerBGGR2BGR = 48
COLOR_BayerRG2BGR = 48
COLOR_BayerRGGB2RGB = 48
COLOR_BAYER_GB2RGB = 49
COLOR_BAYER_GBRG2BGR = 49
COLOR_BAYER_GR2BGR = 49
COLOR_BAYER_GRBG2RGB = 49
COLOR_BayerGB2RGB = 49
COLOR_BayerGBRG2BGR = 49
COLOR_BayerGR2BGR = 49
COLOR_BayerGRBG2RGB = 49
COLOR_BGR2LUV = 50
COLOR_BGR2Luv = 50
COLOR_RGB2LUV = 51
COLOR_RGB2Luv = 51
COLOR_BGR2HLS = 52
COLOR_RGB2HLS = 53
COLOR_HSV2BGR = 54
COLOR_HSV2RGB = 55
COLOR_LAB2BGR = 56
COLOR_Lab2BGR = 56
COLOR_LAB2RGB = 57
COLOR_Lab2RGB = 57
COLOR_LUV2BGR = 58
COLOR_Luv2BGR = 58
COLOR_LUV2RGB = 59
COLOR_Luv2RGB = 59
COLOR_HLS2BGR = 60
COLOR_HLS2RGB = 61
COLOR_BAYER_BG2BGR_VNG = 62
COLOR_BAYER_BGGR2RGB_VNG = 62
COLOR_BAYER_RG2RGB_VNG = 62
COLOR_BAYER_RGGB2BGR_VNG = 62
COLOR_BayerBG2BGR_VNG = 62
COLOR_BayerBGGR2RGB_VNG = 62
COLOR_BayerRG2RGB_VNG = 62
COLOR_BayerRGGB2BGR_VNG = 62
COLOR_BAYER_GB2BGR_VNG = 63
COLOR_BAYER_GBRG2RGB_VNG = 63
COLOR_BAYER_GR2RGB_VNG = 63
COLOR_BAYER_GRBG2BGR_VNG = 63
COLOR_BayerGB2BGR_VNG = 63
COLOR_BayerGBRG2RGB_VNG = 63
COLOR_BayerGR2RGB_VNG = 63
COLOR_BayerGRBG2BGR_VNG = 63
COLOR_BAYER_BG2RGB_VNG = 64
COLOR_BAYER_BGGR2BGR_VNG = 64
COLOR_BAYER_RG2BGR_VNG = 64
COLOR_BAYER_RGGB2RGB_VNG = 64
COLOR_BayerBG2RGB_VNG = 64
COLOR_BayerBGGR2BGR_VNG = 64
COLOR_BayerRG2BGR_VNG = 64
COLOR_BayerRGGB2RGB_VNG = 64
COLOR_BAYER_GB2RGB_VNG = 65
COLOR_BAYER_GBRG2BGR_VNG = 65
COLOR_BAYER_GR2BGR_VNG = 65
COLOR_BAYER_GRBG2RGB_VNG = 65
COLOR_BayerGB2RGB_VNG = 65
COLOR_BayerGBRG2BGR_VNG = 65
COLOR_BayerGR2BGR_VNG = 65
COLOR_BayerGRBG2RGB_VNG = 65
COLOR_BGR2HSV_FULL = 66
COLOR_RGB2HSV_FULL = 67
COLOR_BGR2HLS_FULL = 68
COLOR_RGB2HLS_FULL = 69
COLOR_HSV2BGR_FULL = 70
COLOR_HSV2RGB_FULL = 71
COLOR_HLS2BGR_FULL = 72
COLOR_HLS2RGB_FULL = 73
COLOR_LBGR2LAB = 74
COLOR_LBGR2Lab = 74
COLOR_LRGB2LAB = 75
COLOR_LRGB2Lab = 75
COLOR_LBGR2LUV = 76
COLOR_LBGR2Luv = 76
COLOR_LRGB2LUV = 77
COLOR_LRGB2Luv = 77
COLOR_LAB2LBGR = 78
COLOR_Lab2LBGR = 78
COLOR_LAB2LRGB = 79
COLOR_Lab2LRGB = 79
COLOR_LUV2LBGR = 80
COLOR_Luv2LBGR = 80
COLOR_LUV2LRGB = 81
COLOR_Luv2LRGB = 81
COLOR_BGR2YUV = 82
COLOR_RGB2YUV = 83
COLOR_YUV2BGR = 84
COLOR_YUV2RGB = 85
COLOR_BAYER_BG2GRAY = 86
COLOR_BAYER_RGGB2GRAY = 86
COLOR_BayerBG2GRAY = 86
COLOR_BayerRGGB2GRAY = 86
COLOR_BAYER_GB2GRAY = 87
COLOR_BAYER_GRBG2GRAY = 87
COLOR_BayerGB2GRAY = 87
COLOR_BayerGRBG2GRAY = 87
COLOR_BAYER_BGGR2GRAY = 88
COLOR_BAYER_RG2GRAY = 88
COLOR_BayerBGGR2GRAY = 88
COLOR_BayerRG2GRAY = 88
COLOR_BAYER_GBRG2GRAY = 89
COLOR_BAYER_GR2GRAY = 89
COLOR_BayerGBRG2GRAY = 89
COLOR_BayerGR2GRAY = 89
COLOR_YUV2RGB_NV12 = 90
COLOR_YUV2BGR_NV12 = 91
COLOR_YUV2RGB_NV21 = 92
COLOR_YUV420SP2RGB = 92
COLOR_YUV420sp2RGB = 92
COLOR_YUV2BGR_NV21 = 93
COLOR_YUV420SP2BGR = 93
COLOR_YUV420sp2BGR = 93
COLOR_YUV2RGBA_NV12 = 94
COLOR_YUV2BGRA_NV12 = 95
COLOR_YUV2RGBA_NV21 = 96
COLOR_YUV420SP2RGBA = 96
COLOR_YUV420sp2RGBA = 96
COLOR_YUV2BGRA_NV21 = 97
COLOR_YUV420SP2BGRA = 97
COLOR_YUV420sp2BGRA = 97
COLOR_YUV2RGB_YV12 = 98
COLOR_YUV420P2RGB = 98
COLOR_YUV420p2RGB = 98
COLOR_YUV2BGR_YV12 = 99
COLOR_YUV420P2BGR = 99
COLOR_YUV420p2BGR = 99
COLOR_YUV2RGB_I420 = 100
COLOR_YUV2RGB_IYUV = 100
COLOR_YUV2BGR_I420 = 101
COLOR_YUV2BGR_IYUV = 101
COLOR_YUV2RGBA_YV12 = 102
COLOR_YUV420P2RGBA = 102
COLOR_YUV420p2RGBA = 102
COLOR_YUV2BGRA_YV12 = 103
COLOR_YUV420P2BGRA = 103
COLOR_YUV420p2BGRA = 103
COLOR_YUV2RGBA_I420 = 104
COLOR_YUV2RGBA_IYUV = 104
COLOR_YUV2BGRA_I420 = 105
COLOR_YUV2BGRA_IYUV = 105
COLOR_YUV2GRAY_420 = 106
COLOR_YUV2GRAY_I420 = 106
COLOR_YUV2GRAY_IYUV = 106
COLOR_YUV2GRAY_NV12 = 106
COLOR_YUV2GRAY_NV21 = 106
COLOR_YUV2GRAY_YV12 = 106
COLOR_YUV420P2GRAY = 106
COLOR_YUV420SP2GRAY = 106
COLOR_YUV420p2GRAY = 106
COLOR_YUV420sp2GRAY = 106
COLOR_YUV2RGB_UYNV = 107
COLOR_YUV2RGB_UYVY = 107
COLOR_YUV2RGB_Y422 = 107
COLOR_YUV2BGR_UYNV = 108
COLOR_YUV2BGR_UYVY = 108
COLOR_YUV2BGR_Y422 = 108
COLOR_YUV2RGBA_UYNV = 111
COLOR_YUV2RGBA_UYVY = 111
COLOR_YUV2RGBA_Y422 = 111
COLOR_YUV2BGRA_UYNV = 112
COLOR_YUV2BGRA_UYVY = 112
COLOR_YUV2BGRA_Y422 = 112
COLOR_YUV2RGB_YUNV = 115
COLOR_YUV2RGB_YUY2 = 115
COLOR_YUV2RGB_YUYV = 115
COLOR_YUV2BGR_YUNV = 116
COLOR_YUV2BGR_YUY2 = 116
COLOR_YUV2BGR_YUYV = 116
COLOR_YUV2RGB_YVYU = 117
COLOR_YUV2BGR_YVYU = 118
COLOR_YUV2RGBA_YUNV = 119
COLOR_YUV2RGBA_YUY2 = 119
COLOR_YUV2RGBA_YUYV = 119
COLOR_YUV2BGRA_YUNV = 120
COLOR_YUV2BGRA_YUY2 = 120
COLOR_YUV2BGRA_YUYV = 120
COLOR_YUV2RGBA_YVYU = 121
COLOR_YUV2BGRA_YVYU = 122
COLOR_YUV2GRAY_UYNV = 123
COLOR_YUV2GRAY_UYVY = 123
COLOR_YUV2GRAY_Y422 = 123
COLOR_YUV2GRAY_YUNV = 124
COLOR_YUV2GRAY_YUY2 = 124
COLOR_YUV2GRAY_YUYV = 124
COLOR_YUV2GRAY_YVYU = 124
COLOR_RGBA2M_RGBA = 125
COLOR_RGBA2mRGBA = 125
COLOR_M_RGBA2RGBA = 126
COLOR_mRGBA2RGBA = 126
COLOR_RGB2YUV_I420 = 127
COLOR_RGB2YUV_IYUV = 127
COLOR_BGR2YUV_I420 = 128
COLOR_BGR2YUV_IYUV = 128
COLOR_RGBA2YUV_I420 = 129
COLOR_RGBA2YUV_IYUV = 129
COLOR_BGRA2YUV_I420 = 130
COLOR_BGRA2YUV_IYUV = 130
COLOR_RGB2YUV_YV12 = 131
COLOR_BGR2YUV_YV12 = 132
COLOR_RGBA2YUV_YV12 = 133
COLOR_BGRA2YUV_YV12 = 134
COLOR_BAYER_BG2BGR_EA = 135
COLOR_BAYER_BGGR2RGB_EA = 135
COLOR_BAYER_RG2RGB_EA = 135
COLOR_BAYER_RGGB2BGR_EA = 135
COLOR_BayerBG2BGR_EA = 135
COLOR_BayerBGGR2RGB_EA = 135
COLOR_BayerRG2RGB_EA = 135
COLOR_BayerRGGB2BGR_EA = 135
COLOR_BAYER_GB2BGR_EA = 136
COLOR_BAYER_GBRG2RGB_EA = 136
COLOR_BAYER_GR2RGB_EA = 136
COLOR_BAYER_GRBG2BGR_EA = 136
COLOR_BayerGB2BGR_EA = 136
COLOR_BayerGBRG2RGB_EA = 136
COLOR_BayerGR2RGB_EA = 136
COLOR_BayerGRBG2BGR_EA = 136
COLOR_BAYER_BG2RGB_EA = 137
COLOR_BAYER_BGGR2BGR_EA = 137
COLOR_BAYER_RG2BGR_EA = 137
COLOR_BAYER_RGGB2RGB_EA = 137
COLOR_BayerBG2RGB_EA = 137
COLOR_BayerBGGR2BGR_EA = 137
COLOR_BayerRG2BGR_EA = 137
COLOR_BayerRGGB2RGB_EA = 137
COLOR_BAYER_GB2RGB_EA = 138
COLOR_BAYER_GBRG2BGR_EA = 138
COLOR_BAYER_GR2BGR_EA = 138
COLOR_BAYER_GRBG2RGB_EA = 138
COLOR_BayerGB2RGB_EA = 138
COLOR_BayerGBRG2BGR_EA = 138
COLOR_BayerGR2BGR_EA = 138
COLOR_BayerGRBG2RGB_EA = 138
COLOR_BAYER_BG2BGRA = 139
COLOR_BAYER_BGGR2RGBA = 139
COLOR_BAYER_RG2RGBA = 139
COLOR_BAYER_RGGB2BGRA = 139
COLOR_BayerBG2BGRA = 139
COLOR_BayerBGGR2RGBA = 139
COLOR_BayerRG2RGBA = 139
COLOR_BayerRGGB2BGRA = 139
COLOR_BAYER_GB2BGRA = 140
COLOR_BAYER_GBRG2RGBA = 140
COLOR_BAYER_GR2RGBA = 140
COLOR_BAYER_GRBG2BGRA = 140
COLOR_BayerGB2BGRA = 140
COLOR_BayerGBRG2RGBA = 140
COLOR_BayerGR2RGBA = 140
COLOR_BayerGRBG2BGRA = 140
COLOR_BAYER_BG2RGBA = 141
COLOR_BAYER_BGGR2BGRA = 141
COLOR_BAYER_RG2BGRA = 141
COLOR_BAYER_RGGB2RGBA = 141
COLOR_BayerBG2RGBA = 141
COLOR_BayerBGGR2BGRA = 141
COLOR_BayerRG2BGRA = 141
COLOR_BayerRGGB2RGBA = 141
COLOR_BAYER_GB2RGBA = 142
COLOR_BAYER_GBRG2BGRA = 142
COLOR_BAYER_GR2BGRA = 142
COLOR_BAYER_GRBG2RGBA = 142
COLOR_BayerGB2RGBA = 142
COLOR_BayerGBRG2BGRA = 142
COLOR_BayerGR2BGRA = 142
COLOR_BayerGRBG2RGBA = 142
COLOR_RGB2YUV_UYNV = 143
COLOR_RGB2YUV_UYVY = 143
COLOR_RGB2YUV_Y422 = 143
COLOR_BGR2YUV_UYNV = 144
COLOR_BGR2YUV_UYVY = 144
COLOR_BGR2YUV_Y422 = 144
COLOR_RGBA2YUV_UYNV = 145
COLOR_RGBA2YUV_UYVY = 145
COLOR_RGBA2YUV_Y422 = 145
COLOR_BGRA2YUV_UYNV = 146
COLOR_BGRA2YUV_UYVY = 146
COLOR_BGRA2YUV_Y422 = 146
COLOR_RGB2YUV_YUNV = 147
COLOR_RGB2YUV_YUY2 = 147
COLOR_RGB2YUV_YUYV = 147
COLOR_BGR2YUV_YUNV = 148
COLOR_BGR2YUV_YUY2 = 148
COLOR_BGR2YUV_YUYV = 148
COLOR_RGB2YUV_YVYU = 149
COLOR_BGR2YUV_YVYU = 150
COLOR_RGBA2YUV_YUNV = 151
COLOR_RGBA2YUV_YUY2 = 151
COLOR_RGBA2YUV_YUYV = 151
COLOR_BGRA2YUV_YUNV = 152
COLOR_BGRA2YUV_YUY2 = 152
COLOR_BGRA2YUV_YUYV = 152
COLOR_RGBA2YUV_YVYU = 153
COLOR_BGRA2YUV_YVYU = 154
COLOR_COLORCVT_MAX = 155

_U8_U16_F32 = ("uint8", "uint16", "float32")
_U8_F32 = ("uint8", "float32")


def _build_table():
    """code -> (kind, params, allowed source channel counts, allowed depths)."""
    t = {}
    # BGR <-> RGB, with alpha added (filled with the depth's maximum), kept or dropped.
    for code, dcn, swap in ((0, 4, False), (1, 3, False), (2, 4, True), (3, 3, True), (4, 3, True), (5, 4, True)):
        t[code] = ("perm", (dcn, swap), (1, 3, 4), _U8_U16_F32)  # cv2 5.0 reads 1 channel as gray
    for code, bidx in ((6, 0), (7, 2), (10, 0), (11, 2)):
        t[code] = (_GRAY, (bidx,), (3, 4), _U8_U16_F32)
    t[8] = (_FROMGRAY, (3,), (1,), _U8_U16_F32)
    t[9] = (_FROMGRAY, (4,), (1,), _U8_U16_F32)
    for code, bidx in ((32, 0), (33, 2)):
        t[code] = (_XYZ, (bidx,), (3, 4), _U8_U16_F32)
    for code, bidx in ((34, 0), (35, 2)):
        t[code] = (_XYZ_INV, (3, bidx), (3,), _U8_U16_F32)
    for code, bidx, yuv in ((36, 0, 0), (37, 2, 0), (82, 0, 1), (83, 2, 1)):
        t[code] = (_YCC, (bidx, yuv), (3, 4), _U8_U16_F32)
    for code, bidx, yuv in ((38, 0, 0), (39, 2, 0), (84, 0, 1), (85, 2, 1)):
        t[code] = (_YCC_INV, (3, bidx, yuv), (3,), _U8_U16_F32)
    # HSV / HLS: hue range 180 (uint8) or 256 (_FULL); float images always use 360.
    for code, bidx, full, hls in ((40, 0, 0, 0), (41, 2, 0, 0), (66, 0, 1, 0), (67, 2, 1, 0),
                                  (52, 0, 0, 1), (53, 2, 0, 1), (68, 0, 1, 1), (69, 2, 1, 1)):
        t[code] = (_HSV, (bidx, full, hls), (3, 4), _U8_F32)
    for code, bidx, full, hls in ((54, 0, 0, 0), (55, 2, 0, 0), (70, 0, 1, 0), (71, 2, 1, 0),
                                  (60, 0, 0, 1), (61, 2, 0, 1), (72, 0, 1, 1), (73, 2, 1, 1)):
        t[code] = (_HSV_INV, (3, bidx, full, hls), (3,), _U8_F32)
    # Lab / Luv: (bidx, srgb); the L-codes (LBGR, LRGB) skip the sRGB curve
    for code, kind, bidx, srgb in ((44, _LAB, 0, 1), (45, _LAB, 2, 1), (74, _LAB, 0, 0), (75, _LAB, 2, 0),
                                   (50, _LUV, 0, 1), (51, _LUV, 2, 1), (76, _LUV, 0, 0), (77, _LUV, 2, 0)):
        t[code] = (kind, (bidx, srgb), (3, 4), _U8_F32)
    for code, kind, bidx, srgb in ((56, _LAB_INV, 0, 1), (57, _LAB_INV, 2, 1), (78, _LAB_INV, 0, 0),
                                   (79, _LAB_INV, 2, 0), (58, _LUV_INV, 0, 1), (59, _LUV_INV, 2, 1),
                                   (80, _LUV_INV, 0, 0), (81, _LUV_INV, 2, 0)):
        t[code] = (kind, (3, bidx, srgb), (3,), _U8_F32)
    # Camera YUV 4:2:0, one uint8 plane of H*3/2 rows: (dcn, bidx, uidx)
    for code, dcn, bidx, uidx in ((90, 3, 2, 0), (91, 3, 0, 0), (92, 3, 2, 1), (93, 3, 0, 1),
                                  (94, 4, 2, 0), (95, 4, 0, 0), (96, 4, 2, 1), (97, 4, 0, 1)):
        t[code] = (_YUV420SP, (dcn, bidx, uidx), (1,), ("uint8",))
    # planar: uidx 0 = U plane first (I420/IYUV), 1 = V first (YV12)
    for code, dcn, bidx, uidx in ((98, 3, 2, 1), (99, 3, 0, 1), (100, 3, 2, 0), (101, 3, 0, 0),
                                  (102, 4, 2, 1), (103, 4, 0, 1), (104, 4, 2, 0), (105, 4, 0, 0)):
        t[code] = (_YUV420P, (dcn, bidx, uidx), (1,), ("uint8",))
    t[106] = ("y_plane", (), (1,), ("uint8",))
    # to I420/YV12: cv2 takes 3 or 4 channels whatever the code's name says
    for code, bidx, uidx in ((127, 2, 0), (128, 0, 0), (129, 2, 0), (130, 0, 0),
                             (131, 2, 1), (132, 0, 1), (133, 2, 1), (134, 0, 1)):
        t[code] = (_TO_YUV420P, (bidx, uidx), (3, 4), ("uint8",))
    # 16-bit packed BGR565/BGR555 (cv_color_5x5): (direction, channels, bidx, green bits)
    # (the encoders' channel count, 3 or 4 for every code, is the image's)
    for gbits, base in ((6, 12), (5, 22)):
        for off, bidx in ((0, 0), (1, 2), (4, 0), (5, 2)):
            t[base + off] = ("5x5", (0, 0, bidx, gbits), (3, 4), ("uint8",))
        for off, dcn, bidx in ((2, 3, 0), (3, 3, 2), (6, 4, 0), (7, 4, 2)):
            t[base + off] = ("5x5", (1, dcn, bidx, gbits), (2,), ("uint8",))
        t[base + 8] = ("5x5", (2, 1, 0, gbits), (1,), ("uint8",))
        t[base + 9] = ("5x5", (3, 1, 0, gbits), (2,), ("uint8",))
    # packed YUV 4:2:2 (cv_color_422): (direction, channels, bidx, uidx, yidx); UYVY has yidx 1,
    # YUY2 uidx 0 and YVYU uidx 1 with yidx 0
    for code, dcn, bidx, uidx, yidx in ((107, 3, 2, 0, 1), (108, 3, 0, 0, 1), (111, 4, 2, 0, 1), (112, 4, 0, 0, 1),
                                        (115, 3, 2, 0, 0), (116, 3, 0, 0, 0), (117, 3, 2, 1, 0), (118, 3, 0, 1, 0),
                                        (119, 4, 2, 0, 0), (120, 4, 0, 0, 0), (121, 4, 2, 1, 0), (122, 4, 0, 1, 0)):
        t[code] = ("422", (0, dcn, bidx, uidx, yidx), (2,), ("uint8",))
    t[123] = ("422", (2, 1, 0, 0, 1), (2,), ("uint8",))
    t[124] = ("422", (2, 1, 0, 0, 0), (2,), ("uint8",))
    # encoders: the channel count (3 or 4, whatever the code's name says) is the image's
    for code, bidx, uidx, yidx in ((143, 2, 0, 1), (144, 0, 0, 1), (145, 2, 0, 1), (146, 0, 0, 1),
                                   (147, 2, 0, 0), (148, 0, 0, 0), (149, 2, 1, 0), (150, 0, 1, 0),
                                   (151, 2, 0, 0), (152, 0, 0, 0), (153, 2, 1, 0), (154, 0, 1, 0)):
        t[code] = ("422", (1, 0, bidx, uidx, yidx), (3, 4), ("uint8",))
    t[125] = ("mrgba", (0,), (4,), ("uint8",))
    t[126] = ("mrgba", (1,), (4,), ("uint8",))
    # Bayer (cv_color_bayer): (dcn, blue, start_with_green, algorithm) for the BG, GB, RG, GR
    # layouts; algorithm 0 bilinear, 1 edge-aware, 2 VNG
    for first, dcn in ((46, 3), (139, 4), (86, 1)):
        for k, (blue, green) in enumerate(((-1, 0), (-1, 1), (1, 0), (1, 1))):
            t[first + k] = ("bayer", (dcn, blue, green, 0), (1,), ("uint8", "uint16"))
    for k, (blue, green) in enumerate(((-1, 0), (-1, 1), (1, 0), (1, 1))):  # BGR/RGB only
        t[135 + k] = ("bayer", (3, blue, green, 1), (1,), ("uint8", "uint16"))
        t[62 + k] = ("bayer", (3, blue, green, 2), (1,), ("uint8",))
    return t


_TABLE = _build_table()


# (image type, code, channels or -ndim, dtype, dstCn) -> cv_color bound to its ints
# (_core.prim_bind), for the conversions whose primitive takes the image as it is. A repeated call
# (a frame loop) then skips the validation and table walk below: ~3 us of Python per call, 1-2% of
# a 1080p BGR2RGB. numpy images are memoised under their own type, shape and dtype, and imported
# zero-copy as as_image imports them; cv_color makes its input contiguous itself.
_FAST = {}
_FAST_NUMPY_TYPES = set()  # numpy.ndarray once one was memoised (mnn.cv never imports numpy)


def _fast_key(img, code, dstCn):
    shape = img.shape
    return (type(img), code, shape[2] if len(shape) == 3 else -len(shape), img.dtype, dstCn)


def _prim(kind, img, ints, key=None, name="cv_color"):
    """Runs primitive `name` (cv_color with `kind` first, or a packed-format primitive with
    kind None) on img, memoising it under key for cvtColor's fast path."""
    ints = ([] if kind is None else [kind]) + list(ints)
    res = _core.prim(name, [contiguous(img)], ints, [])
    shape = res.shape
    # cvtColor's fast path hands results back as they are: an HxWx1 one needs the public
    # wrapper's flattening, so it is not memoised
    if key is not None and not (len(shape) == 3 and shape[2] == 1):
        if len(_FAST) >= 256:
            _FAST.clear()  # bounded, as resize's memo
        _FAST[key] = _core.prim_now_bind(name, ints, [])  # for prim_run (csrc/python/fast_run.cpp)
        if key[0] is not _core.ndarray:
            _FAST_NUMPY_TYPES.add(key[0])
    return res


def _native(kind, img, ints, key, depth):
    """The one-pass cv_color_ycc primitive where it covers the conversion (_color_ycc.py), else cv_color."""
    nat = _color_ycc.native_ints(kind, ints, depth)
    if nat is not None:
        return _prim(None, img, nat, key, "cv_color_ycc")
    return _prim(kind, img, ints, key)


_NO = object()  # an argument not given


def cvtColor(src=_NO, code=_NO, dst=None, dstCn=0, hint=None, *more, **extra):
    # A repeated conversion (see _FAST) runs here, outside the wrapper every public mnn.cv
    # function gets (_public.py): that wrapper costs ~0.45 us a call, a fifth of a 64x48
    # BGR2RGB. What it would do to these calls is nothing: no dst to fill, errors impossible for
    # an image the memo already validated (the checked path below raises them if one comes
    # anyway, under cvtColor's name), and no HxWx1 result to flatten (_prim memoises none).
    # Every other call, a wrong one included (missing or extra arguments: hence the defaults
    # and *more, **extra), goes to the wrapped function as it was made.
    if dst is None and type(code) is int and type(dstCn) is int and not more and not extra:
        t = type(src)
        if t is _core.ndarray or t in _FAST_NUMPY_TYPES:
            bound = _FAST.get(_fast_key(src, code, dstCn))
            if bound is not None:
                try:
                    # at once on a dense image (numpy imported in C), else recorded; None where
                    # the import refuses src
                    res = _core.prim_run(bound, src)
                    if res is not None:
                        return res
                except Exception:  # noqa: BLE001  (re-raised, named, by the checked path)
                    pass
    if more or src is _NO or code is _NO:
        given = {k: v for k, v in (("src", src), ("code", code)) if v is not _NO}
        if more:
            return _cvt_color_public(src, code, dst, dstCn, hint, *more, **extra)
        return _cvt_color_public(dst=dst, dstCn=dstCn, hint=hint, **given, **extra)
    return _cvt_color_public(src, code, dst, dstCn, hint, **extra)


def _cvt_color_checked(src, code, dst=None, dstCn=0, hint=None):
    """cvtColor with everything checked; the memo's entry is made here."""
    t = type(src)
    if type(code) is int and type(dstCn) is int and (t is _core.ndarray or t in _FAST_NUMPY_TYPES):
        bound = _FAST.get(_fast_key(src, code, dstCn))
        if bound is not None:
            res = _core.prim_run(bound, src)
            if res is not None:
                return res
    key = None
    if type(code) is int and type(dstCn) is int:
        mt = memo_type(src)
        if mt is not None:
            key = _fast_key(src, code, dstCn)
    return _cvt_color(src, code, dstCn, key)


def _cvt_color(src, code, dstCn, key):
    fn = "cvtColor"
    img = as_image(src, fn)
    code = int(code)
    entry = _TABLE.get(code)
    if entry is None:
        if 0 <= code < COLOR_COLORCVT_MAX:
            raise fail(fn, f"color conversion code {code} is not supported by mnn.cv")
        raise fail(fn, f"Unknown/unsupported color conversion code {code}")
    kind, params, scns, depths = entry
    if img.ndim not in (2, 3):
        raise fail(fn, f"Invalid number of channels in input image: {img.ndim}-d array")
    scn = channels(img)
    if scn not in scns:
        raise fail(fn, f"Invalid number of channels in input image: 'VScn::contains(scn)' where scn is {scn}")
    depth = str(img.dtype)
    if depth not in depths:
        raise fail(fn, f"Unsupported depth of input image: 'VDepth::contains(depth)' where depth is {depth}")
    if dstCn not in (0, None) and kind in (_FROMGRAY, _XYZ_INV, _YCC_INV, _HSV_INV, _LAB_INV, _LUV_INV, _YUV420SP,
                                           _YUV420P):
        dcn = int(dstCn)
        if dcn not in (3, 4):
            raise fail(fn, f"Invalid number of channels in output image: dcn is {dcn}")
        params = (dcn,) + tuple(params[1:])
    if kind in ("5x5", "422", "mrgba", "bayer"):
        return _packed(fn, img, kind, params, dstCn, key)
    if kind == "perm":
        dcn, swap = params
        if dstCn not in (0, None):  # cv2 lets dstCn add or drop the alpha channel here too
            dcn = int(dstCn)
            if dcn not in (3, 4):
                raise fail(fn, f"Invalid number of channels in output image: 'VDcn::contains(dcn)' where dcn is {dcn}")
        if scn == 1:
            if img.ndim == 3:
                img = img.reshape(img.shape[0], img.shape[1])
            return _prim(_FROMGRAY, img, [dcn])
        order = [2, 1, 0] if swap else [0, 1, 2]
        if dcn == 4:
            order.append(3 if scn == 4 else -1)
        return _native(_PERM, img, [scn, dcn] + order, key, depth)
    if kind == _GRAY:
        return _native(_GRAY, img, [scn, params[0]], key, depth)
    if kind == _FROMGRAY:
        if img.ndim == 3:
            img = img.reshape(img.shape[0], img.shape[1])
        return _prim(_FROMGRAY, img, [params[0]])
    if kind in (_LAB, _LUV):
        return _prim(kind, img, [scn] + list(params), key)
    if kind in (_LAB_INV, _LUV_INV):
        return _prim(kind, img, list(params), key)
    if kind in (_XYZ, _YCC):
        return _native(kind, img, [scn] + list(params), key, depth)
    if kind in (_XYZ_INV, _YCC_INV):
        return _native(kind, img, list(params), key, depth)
    if kind == _HSV:
        bidx, full, hls = params
        if hls and full and depth == "uint8" and _X86:
            # cv2 on x86 hands these to IPP (hue scale 255; its own code, elsewhere, has 256):
            # the kernel reproduces IPP's arithmetic (simd/cv/color.cpp, hls_full_ipp_row_u8)
            return _prim(_HSV, img, [scn, bidx, 255, hls, 1], key)
        hrange = 360 if depth == "float32" else (256 if full else 180)
        return _prim(_HSV, img, [scn, bidx, hrange, hls], key)
    if kind == _HSV_INV:
        dcn, bidx, full, hls = params
        if full and not hls and depth == "uint8" and _X86:
            # IPP again on x86 (hsv_full_ipp_inv_row_u8)
            return _prim(_HSV_INV, img, [dcn, bidx, 255, 0, 1], key)
        # cv2's uint8 inverse uses 255 as the full hue range (the forward direction 256)
        hrange = 360 if depth == "float32" else (255 if full else 180)
        return _prim(_HSV_INV, img, [dcn, bidx, hrange, hls], key)
    if kind in (_YUV420SP, _YUV420P, "y_plane"):
        rows, cols = img.shape[0], img.shape[1]
        if cols % 2 or rows % 3:
            raise fail(fn, f"Bad size of YUV 4:2:0 image: 'sz.width % 2 == 0 && sz.height % 3 == 0' where "
                           f"sz is {cols}x{rows}")
        h = rows * 2 // 3
        img = _np.ascontiguousarray(img.reshape(rows, cols))
        y = img[:h]
        if kind == "y_plane":
            return _np.array(y)
        chroma = img[h:].reshape(-1)
        dcn, bidx, uidx = params
        if kind == _YUV420SP:
            return _core.prim("cv_color", [y, chroma], [_YUV420SP, dcn, bidx, uidx], [])
        n = (h // 2) * (cols // 2)
        first, second = chroma[:n], chroma[n:]
        u, v = (first, second) if uidx == 0 else (second, first)
        return _core.prim("cv_color", [y, u, v], [_YUV420P, dcn, bidx], [])
    if kind == _TO_YUV420P:
        h, w = img.shape[0], img.shape[1]
        if h % 2 or w % 2:
            raise fail(fn, f"Bad size of image for YUV 4:2:0: 'sz.width % 2 == 0 && sz.height % 2 == 0' where "
                           f"sz is {w}x{h}")
        bidx, uidx = params
        return _native(_TO_YUV420P, img, [scn, bidx, uidx], None, depth)
    raise fail(fn, f"color conversion code {code} is not supported by mnn.cv")  # pragma: no cover


# The packed and raw camera formats, each its own primitive (csrc/ops/cv/color_ext.cpp).
_PACKED_PRIMS = {"5x5": "cv_color_5x5", "422": "cv_color_422", "mrgba": "cv_color_mrgba", "bayer": "cv_color_bayer"}


def _packed(fn, img, kind, params, dstCn, key):
    params = list(params)
    if (kind == "5x5" and params[0] == 0) or (kind == "422" and params[0] == 1):
        params[1] = channels(img)  # encoders take 3 or 4 channels whatever the code says
    # where cv2 lets dstCn choose the output's channels: decoding to colour (3 or 4)
    to_colour = (kind == "5x5" and params[0] == 1) or (kind == "422" and params[0] == 0) or \
                (kind == "bayer" and params[0] != 1)
    dcn = int(dstCn) if dstCn not in (0, None) else 0
    if to_colour and dcn:
        if dcn not in (3, 4):
            raise fail(fn, f"Invalid number of channels in output image: 'VDcn::contains(dcn)' where dcn is {dcn}")
        params[1 if kind != "bayer" else 0] = dcn
    if kind == "bayer" and params[3] and dcn not in (0, 3):
        # cv2 refuses 4 for _EA; for _VNG it accepts 4 but writes 3-channel pixels into it
        raise fail(fn, f"Invalid number of channels in output image: 'scn == 1 && dcn == 3' where dcn is {dcn}"
                       + (" (mnn.cv gives VNG only as 3 channels)" if params[3] == 2 else ""))
    if kind == "bayer" and params[0] == 1 and dcn not in (0, 1):
        raise fail(fn, f"Invalid number of channels in output image: 'scn == 1 && dcn == 1' where dcn is {dcn}")
    if kind == "422" and params[0] != 2:
        if img.shape[1] % 2:
            raise fail(fn, f"Bad size of 4:2:2 image: 'sz.width % 2 == 0' where sz is {img.shape[1]}x{img.shape[0]}")
        key = None  # the memo skips this check: an odd width must still raise cv2's error
    if img.ndim == 3 and img.shape[2] == 1:
        img = img.reshape(img.shape[0], img.shape[1])
        key = None  # the memo is keyed on the image's own shape
    return _prim(None, img, params, key, _PACKED_PRIMS[kind])


def cvtColorTwoPlane(src1, src2, code, dst=None):
    """NV12/NV21 given as a Y plane (HxW) and an interleaved chroma plane (H/2 x W/2 x 2)."""
    fn = "cvtColorTwoPlane"
    y = as_image(src1, fn, "src1")
    uv = as_image(src2, fn, "src2")
    code = int(code)
    entry = _TABLE.get(code)
    if entry is None or entry[0] != _YUV420SP:
        raise fail(fn, f"Unknown/unsupported color conversion code {code}")
    if str(y.dtype) != "uint8" or str(uv.dtype) != "uint8":
        raise fail(fn, "Unsupported depth of input image: only uint8 planes")
    if channels(y) != 1 or y.ndim not in (2, 3):
        raise fail(fn, "Invalid number of channels in the Y plane: 'ysrc.channels() == 1'")
    h, w = y.shape[0], y.shape[1]
    if h % 2 or w % 2:
        raise fail(fn, f"Bad size of Y plane: 'ysz.width % 2 == 0 && ysz.height % 2 == 0' where ysz is {w}x{h}")
    uv_ok = uv.ndim == 3 and uv.shape[2] == 2 and uv.shape[0] == h // 2 and uv.shape[1] == w // 2
    if not uv_ok:
        raise fail(fn, "Bad size of UV plane: 'uvsz.width * 2 == ysz.width && uvsz.height * 2 == ysz.height'")
    dcn, bidx, uidx = entry[1]
    yy = _np.ascontiguousarray(y.reshape(h, w))
    cc = _np.ascontiguousarray(uv).reshape(-1)
    return _core.prim("cv_color", [yy, cc], [_YUV420SP, dcn, bidx, uidx], [])


# cvtColor's checked path, wrapped as every public function is; cvtColor itself is marked as
# wrapped (__wrapped__) so that wrap_public leaves it as it is.
_cvt_color_checked.__name__ = _cvt_color_checked.__qualname__ = "cvtColor"  # as Python's argument errors name it
_cvt_color_public = _public._named(_cvt_color_checked, "mnn.cv.cvtColor")
cvtColor.__wrapped__ = _cvt_color_checked

__all__ = ["cvtColor", "cvtColorTwoPlane"] + [n for n in dir() if n.startswith("COLOR_")]
