// run71 experiment: three kinds of fixed CPU work timed on one core every 0.3 s: an ALU chain, a random
// pointer chase over 1 MiB (L2) and over 64 MiB (beyond the caches).
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static double wall(void){struct timespec t;clock_gettime(CLOCK_REALTIME,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static uint32_t* cycle(uint32_t n){uint32_t*p=malloc(n*4),*o=malloc(n*4);for(uint32_t i=0;i<n;i++)o[i]=i;
 uint64_t s=88172645463325252ull;for(uint32_t i=n-1;i>0;i--){s^=s<<13;s^=s>>7;s^=s<<17;uint32_t j=s%(i+1);uint32_t t=o[i];o[i]=o[j];o[j]=t;}
 for(uint32_t i=0;i<n;i++)p[o[i]]=o[(i+1)%n];free(o);return p;}
volatile uint64_t sink;
int main(int c,char**v){int core=atoi(v[1]);double secs=atof(v[2]);cpu_set_t s;CPU_ZERO(&s);CPU_SET(core,&s);sched_setaffinity(0,sizeof s,&s);
 uint32_t*small=cycle(1u<<18),*big=cycle(1u<<24);double end=now()+secs;
 while(now()<end){double t0=now();uint64_t x=sink+1;for(uint64_t i=0;i<(1u<<20);i++)x=x*6364136223846793005ULL+1442695040888963407ULL;sink=x;
  double t1=now();uint32_t k=0;for(int i=0;i<(1<<18);i++)k=small[k];sink+=k;
  double t2=now();k=0;for(int i=0;i<(1<<16);i++)k=big[k];sink+=k;double t3=now();
  char*m=mmap(0,8u<<20,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0);for(size_t o=0;o<(8u<<20);o+=4096)m[o]=1;munmap(m,8u<<20);double t4=now();
  uint64_t a0=sink,a1=a0+1,a2=a0+2,a3=a0+3,a4=a0+4,a5=a0+5,a6=a0+6,a7=a0+7;
  for(uint64_t i=0;i<(1u<<20);i++){a0=a0*6364136223846793005ULL+1;a1=a1*6364136223846793005ULL+3;a2=a2*6364136223846793005ULL+5;a3=a3*6364136223846793005ULL+7;
   a4=a4^(a4>>7)^i;a5=a5+(a5<<3)+i;a6=(a6^i)+(a6>>5);a7=a7+i*3;}
  sink=a0^a1^a2^a3^a4^a5^a6^a7;double t5=now();
  printf("%.3f ipc %.3f ",wall(),1e3*(t5-t4));
  printf("%.3f alu %.3f l2 %.3f mem %.3f fault %.3f\n",wall(),1e3*(t1-t0),1e3*(t2-t1),1e3*(t3-t2),1e3*(t4-t3));fflush(stdout);usleep(300000);}
 return 0;}
