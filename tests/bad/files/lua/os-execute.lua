os.execute("touch /tmp/situ-pwned")
return {name = "x"}
