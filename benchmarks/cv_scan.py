#!/usr/bin/env python3
"""A broad speed scan of mnn.cv against cv2: ~90 calls on a 640x480 image at 1 thread, printing the
ones below --below (default 0.8) of cv2's speed (cv2 time / mnn time, medians of --repeats). It is a
map of where mnn.cv still loses, not a benchmark table: benchmarks/run.py holds the measured rows.

    PYTHONPATH=src python benchmarks/cv_scan.py [--below 0.8] [--repeats 7] [--all]
"""
import argparse
import time

import cv2
import numpy as np

import mnn
import mnn.cv as mc

ap = argparse.ArgumentParser()
ap.add_argument("--below", type=float, default=0.8)
ap.add_argument("--repeats", type=int, default=7)
ap.add_argument("--all", action="store_true", help="print every call, not only the slow ones")
ARGS = ap.parse_args()
cv2.setNumThreads(1); mnn.set_num_threads(1)
rng=np.random.default_rng(0)
img=rng.integers(0,256,(480,640,3),dtype=np.uint8); g=img[:,:,0].copy(); f=img.astype(np.float32)/255; gf=g.astype(np.float32)
b=(g>128).astype(np.uint8)*255
M=cv2.getRotationMatrix2D((320,240),15,1.0); P=np.array([[1,0.1,5],[0.05,1,3],[1e-4,2e-4,1]])
mapx,mapy=np.meshgrid(np.arange(640,dtype=np.float32)*0.9+3,np.arange(480,dtype=np.float32)*0.9+2)
k=np.ones((5,5),np.float32)/25
cases=[]
def add(name, fn): cases.append((name,fn))
for code in ('BGR2GRAY','BGR2RGB','BGR2HSV','BGR2HLS','BGR2Lab','BGR2Luv','BGR2YCrCb','BGR2XYZ','BGR2YUV','HSV2BGR','HLS2BGR','Lab2BGR','Luv2BGR','YCrCb2BGR','XYZ2BGR','YUV2BGR','BGR2BGRA','BGR2YUV_I420'):
    c=getattr(cv2,'COLOR_'+code); add('cvt '+code, lambda m,c=c: m.cvtColor(img,c))
    add('cvt f32 '+code, lambda m,c=c: m.cvtColor(f,c)) if 'I420' not in code else None
add('resize lin', lambda m: m.resize(img,(320,240)))
add('resize cubic', lambda m: m.resize(img,(800,600),interpolation=cv2.INTER_CUBIC))
add('resize area', lambda m: m.resize(img,(320,240),interpolation=cv2.INTER_AREA))
add('resize lanczos', lambda m: m.resize(img,(320,240),interpolation=cv2.INTER_LANCZOS4))
add('resize nearest', lambda m: m.resize(img,(800,600),interpolation=cv2.INTER_NEAREST))
add('warpAffine', lambda m: m.warpAffine(img,M,(640,480)))
add('warpAffine cubic', lambda m: m.warpAffine(img,M,(640,480),flags=cv2.INTER_CUBIC))
add('warpPerspective', lambda m: m.warpPerspective(img,P,(640,480)))
add('remap', lambda m: m.remap(img,mapx,mapy,cv2.INTER_LINEAR))
add('flip', lambda m: m.flip(img,1)); add('rotate90', lambda m: m.rotate(img,cv2.ROTATE_90_CLOCKWISE)); add('transpose', lambda m: m.transpose(g))
add('copyMakeBorder', lambda m: m.copyMakeBorder(img,10,10,10,10,cv2.BORDER_REFLECT_101))
add('pyrDown', lambda m: m.pyrDown(img)); add('pyrUp', lambda m: m.pyrUp(img))
add('blur5', lambda m: m.blur(img,(5,5))); add('boxFilter', lambda m: m.boxFilter(img,-1,(7,7))); add('sqrBoxFilter', lambda m: m.sqrBoxFilter(gf,-1,(5,5)))
add('Gauss5', lambda m: m.GaussianBlur(img,(5,5),0)); add('Gauss f32', lambda m: m.GaussianBlur(f,(7,7),1.5))
add('median5', lambda m: m.medianBlur(img,5)); add('median3 f32', lambda m: m.medianBlur(gf,3))
add('bilateral', lambda m: m.bilateralFilter(img,9,50,5))
add('filter2D', lambda m: m.filter2D(img,-1,k)); add('sepFilter2D', lambda m: m.sepFilter2D(img,-1,k[0],k[:,0]))
add('Sobel', lambda m: m.Sobel(g,cv2.CV_16S,1,0)); add('Scharr', lambda m: m.Scharr(g,cv2.CV_32F,0,1)); add('Laplacian', lambda m: m.Laplacian(g,cv2.CV_16S,ksize=3))
ker=cv2.getStructuringElement(cv2.MORPH_RECT,(5,5))
add('erode', lambda m: m.erode(img,ker)); add('dilate', lambda m: m.dilate(g,ker)); add('morph open', lambda m: m.morphologyEx(b,cv2.MORPH_OPEN,ker)); add('morph grad', lambda m: m.morphologyEx(g,cv2.MORPH_GRADIENT,ker))
add('threshold', lambda m: m.threshold(g,100,255,cv2.THRESH_BINARY)); add('otsu', lambda m: m.threshold(g,0,255,cv2.THRESH_BINARY+cv2.THRESH_OTSU))
add('adaptiveThr', lambda m: m.adaptiveThreshold(g,255,cv2.ADAPTIVE_THRESH_GAUSSIAN_C,cv2.THRESH_BINARY,11,2))
add('inRange', lambda m: m.inRange(img,(10,20,30),(200,210,220))); add('equalizeHist', lambda m: m.equalizeHist(g))
add('calcHist', lambda m: m.calcHist([img],[0],None,[256],[0,256])); add('CLAHE', lambda m: m.createCLAHE(2.0,(8,8)).apply(g))
add('Canny', lambda m: m.Canny(g,50,150)); add('findContours', lambda m: m.findContours(b,cv2.RETR_LIST,cv2.CHAIN_APPROX_SIMPLE))
add('connectedCompStats', lambda m: m.connectedComponentsWithStats(b))
add('split', lambda m: m.split(img)); add('merge', lambda m: m.merge([g,g,g])); add('add', lambda m: m.add(img,img)); add('absdiff', lambda m: m.absdiff(img,img[::-1].copy()))
add('addWeighted', lambda m: m.addWeighted(img,0.5,img,0.5,3)); add('convertScaleAbs', lambda m: m.convertScaleAbs(img,alpha=1.5,beta=3))
add('normalize', lambda m: m.normalize(gf,None,0,1,cv2.NORM_MINMAX)); add('minMaxLoc', lambda m: m.minMaxLoc(g)); add('meanStdDev', lambda m: m.meanStdDev(img))
add('countNonZero', lambda m: m.countNonZero(g)); add('LUT', lambda m: m.LUT(img,np.arange(256,dtype=np.uint8)[::-1].copy()))
add('bitwise_and', lambda m: m.bitwise_and(img,img)); add('magnitude', lambda m: m.magnitude(gf,gf)); add('phase', lambda m: m.phase(gf,gf)); add('cartToPolar', lambda m: m.cartToPolar(gf,gf))
add('exp', lambda m: m.exp(gf)); add('log', lambda m: m.log(gf+1)); add('pow', lambda m: m.pow(gf,2.5)); add('sqrt', lambda m: m.sqrt(gf))
add('hconcat', lambda m: m.hconcat([img,img])); add('blobFromImage', lambda m: m.dnn.blobFromImage(img,1/255,(224,224),(0,0,0),True))
add('imencode png', lambda m: m.imencode('.png',img)); add('imencode jpg', lambda m: m.imencode('.jpg',img))
png=cv2.imencode('.png',img)[1]; jpg=cv2.imencode('.jpg',img)[1]
add('imdecode png', lambda m: m.imdecode(png,cv2.IMREAD_COLOR)); add('imdecode jpg', lambda m: m.imdecode(jpg,cv2.IMREAD_COLOR))
def force(r):
    if isinstance(r,(tuple,list)):
        for x in r: force(x)
    elif r is not None and hasattr(r,'__array__') and not isinstance(r,np.ndarray): np.asarray(r)
for name,fn in cases:
    try:
        tc=[];tm=[]
        for i in range(ARGS.repeats):
            t0=time.perf_counter(); fn(cv2); tc.append(time.perf_counter()-t0)
            t0=time.perf_counter(); force(fn(mc)); tm.append(time.perf_counter()-t0)
        tc.sort(); tm.sort(); h = ARGS.repeats // 2; r = tc[h] / tm[h]
        if r < ARGS.below or ARGS.all: print(f"{name:22s} cv2 {tc[h]*1e3:7.3f} ms  mnn {tm[h]*1e3:7.3f} ms  ratio {r:.2f}")
    except Exception as e: print(name,'ERR',type(e).__name__,str(e)[:80])
