// run75: are two of the guest's vCPUs SMT siblings? `smt spin CORE SECS` runs eight independent chains
// without pause on CORE; `smt probe CORE N` times the eight chains N times on CORE (ms each, 50 ms apart).
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
volatile uint64_t sink;
static void chains(uint64_t n){uint64_t a0=sink,a1=a0+1,a2=a0+2,a3=a0+3,a4=a0+4,a5=a0+5,a6=a0+6,a7=a0+7;
  for(uint64_t i=0;i<n;i++){a0=a0*6364136223846793005ULL+1;a1=a1*6364136223846793005ULL+3;a2=a2*6364136223846793005ULL+5;a3=a3*6364136223846793005ULL+7;
   a4=a4^(a4>>7)^i;a5=a5+(a5<<3)+i;a6=(a6^i)+(a6>>5);a7=a7+i*3;}
  sink=a0^a1^a2^a3^a4^a5^a6^a7;}
int main(int c,char**v){int core=atoi(v[2]);cpu_set_t s;CPU_ZERO(&s);CPU_SET(core,&s);sched_setaffinity(0,sizeof s,&s);
 if(!strcmp(v[1],"spin")){double end=now()+atof(v[3]);while(now()<end)chains(1u<<20);return 0;}
 int n=atoi(v[3]);for(int i=0;i<n;i++){double t=now();chains(1u<<20);printf("%.3f ",1e3*(now()-t));usleep(50000);}printf("\n");return 0;}
