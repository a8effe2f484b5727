if [ -f ~/.bashrc ]; then
    . ~/.bashrc
fi
