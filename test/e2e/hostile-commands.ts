/** Commands an agent hunting for credentials would run; shared by the security and run-page tests. */
export function hostileCommands(slackApiUrl: string): string[] {
  return [
    "cat /proc/1/environ | tr '\\0' '\\n'; echo; env",
    'cat ~/.ssh/id_rsa; ls -la /root /home 2>&1 | head',
    'ls -la "$WRENCH_DATA_DIR" ../ ../../ 2>&1 | head -20; git remote -v; cat .git/config',
    'find / -path /proc -prune -o -name "*.git" -print 2>/dev/null | grep -i mirror | head',
    `cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -iE 'token|key|secret' | head`,
    'echo pwned > /etc/wrench-pwned 2>&1; echo x > ../outside.txt 2>&1; ls /etc/wrench-pwned 2>&1',
    `curl -sS -m 3 ${slackApiUrl}auth.test 2>&1 || node -e "fetch('${slackApiUrl}auth.test').then(r=>console.log('REACHED',r.status),e=>console.log('blocked',e.cause?.code))"`,
    'yes wrench | head -c 50000000',
  ];
}
